import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `funding` area. */
export const createFundingHandlers = (_ctx: ServiceContext): DeskHandlers['funding'] => ({});
