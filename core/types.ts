/**
 * The core's own vocabulary that every layer of it uses: events to the renderer and the active
 * profile. It sits at the bottom of the core (with errors.ts), so the engine folders (trade,
 * watchers, …) and profiles/ can name these types without importing the handlers' layer
 * (context.ts re-exports them). See docs/architecture.md, "Layers".
 */
import type { z } from 'zod';
import type { EventName, Events } from '../shared/contract';
import type { ProfileKind } from '../shared/contract/profiles';

export type Emit = <N extends EventName>(name: N, payload: z.input<Events[N]>) => void;

/** The profile everything currently works against. */
export interface ActiveProfile {
  readonly id: string;
  readonly name: string;
  readonly kind: ProfileKind;
  /** Base URL incl. /api/v4. */
  readonly baseUrl: string;
  /** The user id of the key's account (main account), when known after connecting. */
  readonly userId?: number;
}
