import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `transfers` area. */
export const createTransfersHandlers = (_ctx: ServiceContext): DeskHandlers['transfers'] => ({});
