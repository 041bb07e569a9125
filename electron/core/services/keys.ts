import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `keys` area. */
export const createKeysHandlers = (_ctx: ServiceContext): DeskHandlers['keys'] => ({});
