import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `subAccounts` area. */
export const createSubAccountsHandlers = (_ctx: ServiceContext): DeskHandlers['subAccounts'] => ({});
