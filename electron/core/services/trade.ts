import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `trade` area. */
export const createTradeHandlers = (_ctx: ServiceContext): DeskHandlers['trade'] => ({});
