import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `activity` area. */
export const createActivityHandlers = (_ctx: ServiceContext): DeskHandlers['activity'] => ({});
