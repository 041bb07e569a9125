import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

/** Handlers of the `profiles` area. */
export const createProfilesHandlers = (_ctx: ServiceContext): DeskHandlers['profiles'] => ({});
