// Starts a sandbox for the spot integration tests and hands out funded users with signed clients.

import type { SandboxContext } from '../../context';
import type { RateLimiter } from '../../http/rate-limit';
import { startSandbox } from '../../server';
import { FULL_PERMS } from '../../store/users';
import { type SpotModule, spotModuleOf } from '../index';
import { SignedClient } from './client';

export interface SpotTestSandbox {
  baseUrl: string;
  /** The control plane's token header (X-Sandbox-Token). */
  controlHeaders: Readonly<Record<string, string>>;
  ctx: SandboxContext;
  spot: SpotModule;
  /** The rate limiter (tests that are not about limits switch enforcement off). */
  limiter: RateLimiter;
  /** A new main account with a full key and the given spot balances. */
  user(funds?: Record<string, string>, fees?: { maker_fee?: string; taker_fee?: string }): TestUser;
  /** A sub-account of `main` with a full key. */
  subAccount(main: TestUser, funds?: Record<string, string>): TestUser;
  balance(userId: number, currency: string): { available: string; locked: string };
  /** Cancels every open order (tests start from empty books). */
  clearBooks(): void;
  close(): Promise<void>;
}

export interface TestUser {
  id: number;
  api: SignedClient;
}

let counter = 0;

export async function startSpotSandbox(
  opts: { market?: 'on' | 'off'; seed?: number; clock?: 'real' | 'manual' } = {},
): Promise<SpotTestSandbox> {
  const handle = await startSandbox({
    port: 0,
    memory: true,
    market: opts.market ?? 'off',
    clock: opts.clock ?? 'real',
    seed: opts.seed ?? 7,
  });
  const { ctx } = handle;
  const spot = spotModuleOf(ctx);
  if (spot === undefined) throw new Error('the spot module did not register');
  const fund = (userId: number, funds: Record<string, string>) =>
    ctx.db.transaction(() => {
      for (const [currency, amount] of Object.entries(funds)) {
        ctx.ledger.credit({ userId, account: 'spot', currency }, amount, 'dnw');
      }
    })();
  const withKey = (userId: number): TestUser => {
    const key = ctx.users.createKey(userId, { perms: FULL_PERMS, ipWhitelist: [] });
    return { id: userId, api: new SignedClient(handle.baseUrl, key.key, key.secret) };
  };
  return {
    baseUrl: handle.baseUrl,
    controlHeaders: handle.controlHeaders,
    ctx,
    spot,
    limiter: handle.limiter,
    user(funds = {}, fees) {
      const u = ctx.users.createUser({ parentId: null, loginName: `spot_test_${process.pid}_${++counter}` });
      if (fees !== undefined) ctx.users.setFees(u.id, fees);
      fund(u.id, funds);
      return withKey(u.id);
    },
    subAccount(main, funds = {}) {
      const u = ctx.users.createUser({ parentId: main.id, loginName: `spot_sub_${process.pid}_${++counter}` });
      fund(u.id, funds);
      return withKey(u.id);
    },
    balance(userId, currency) {
      const b = ctx.ledger.get({ userId, account: 'spot', currency });
      return { available: b.available, locked: b.locked };
    },
    clearBooks() {
      const owners = spot.exchange.store.query<{ user_id: number }>(
        "SELECT DISTINCT user_id FROM spot_orders WHERE status = 'open'",
      );
      for (const { user_id } of owners) spot.exchange.cancelAll(user_id);
    },
    close: () => handle.close(),
  };
}
