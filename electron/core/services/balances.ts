import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `balances` area. */
export const createBalancesHandlers = (_ctx: ServiceContext): DeskHandlers['balances'] => ({});
