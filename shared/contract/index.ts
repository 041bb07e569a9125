/**
 * The one IPC contract between the renderer and main. The preload exposes exactly these
 * operations as `window.desk`; main registers one handler per operation from the same map and
 * validates every payload against these schemas before any handler runs.
 */
import type { DeskApi, Handlers, OperationName } from '../ipc/define';
import { activity } from './activity';
import { app } from './app';
import { balances } from './balances';
import { bulk } from './bulk';
import { events } from './events';
import { funding } from './funding';
import { keys } from './keys';
import { operators } from './operators';
import { approvals, policies } from './policies';
import { profiles } from './profiles';
import { subAccounts } from './subAccounts';
import { team } from './team';
import { trade } from './trade';
import { transfers } from './transfers';

export const contract = {
  app,
  profiles,
  balances,
  funding,
  transfers,
  subAccounts,
  keys,
  trade,
  activity,
  bulk,
  operators,
  policies,
  approvals,
  team,
};
export { events };

export type Contract = typeof contract;
export type Events = typeof events;
export type EventName = keyof Events & string;
export type DeskOperation = OperationName<Contract>;
export type DeskHandlers = Handlers<Contract>;
export type Desk = DeskApi<Contract, Events>;
