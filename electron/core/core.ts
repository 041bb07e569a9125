/**
 * The Electron-free heart of main: builds the service context and every area's handlers, and
 * the dispatcher that guards them. The Electron glue (electron/main) and the Chromium fallback
 * shell (electron/shell) both start exactly this and only differ in transport.
 */
import { contract, type DeskHandlers } from '../../shared/contract';
import { createDispatcher, type Dispatch } from './ipc/dispatcher';
import { createActivityHandlers } from './services/activity';
import { createAppHandlers } from './services/app';
import { createBalancesHandlers } from './services/balances';
import type { Emit, ServiceContext } from './services/context';
import { createFundingHandlers } from './services/funding';
import { createKeysHandlers } from './services/keys';
import { createProfilesHandlers } from './services/profiles';
import { createSubAccountsHandlers } from './services/subAccounts';
import { createTradeHandlers } from './services/trade';
import { createTransfersHandlers } from './services/transfers';

export interface CoreOptions {
  readonly dataDir: string;
  readonly shell: 'electron' | 'chromium';
  /** Origins the renderer is served from; every IPC sender is checked against them. */
  readonly trustedOrigins: readonly string[];
  readonly emit: Emit;
  readonly logError?: (operation: string, error: unknown) => void;
}

export interface Core {
  readonly dispatch: Dispatch;
  readonly handlers: DeskHandlers;
  close(): Promise<void>;
}

export const createHandlers = (ctx: ServiceContext): DeskHandlers => ({
  app: createAppHandlers(ctx),
  profiles: createProfilesHandlers(ctx),
  balances: createBalancesHandlers(ctx),
  funding: createFundingHandlers(ctx),
  transfers: createTransfersHandlers(ctx),
  subAccounts: createSubAccountsHandlers(ctx),
  keys: createKeysHandlers(ctx),
  trade: createTradeHandlers(ctx),
  activity: createActivityHandlers(ctx),
});

export const createCore = async (options: CoreOptions): Promise<Core> => {
  const ctx: ServiceContext = { emit: options.emit, dataDir: options.dataDir, shell: options.shell };
  const handlers = createHandlers(ctx);
  const dispatch = createDispatcher(contract, handlers, {
    trustedOrigins: options.trustedOrigins,
    ...(options.logError ? { logError: options.logError } : {}),
  });
  return { dispatch, handlers, close: async () => {} };
};
