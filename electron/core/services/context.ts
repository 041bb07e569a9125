/**
 * What every area's handlers get from the core: the active profile's platform API, the journal,
 * events to the renderer, settings. Built once in core.ts; handlers never construct these themselves.
 *
 * (Initial shape by the lead; the main-core engineer extends it — keep it the one place.)
 */
import type { z } from 'zod';
import type { EventName, Events } from '../../../shared/contract';

export type Emit = <N extends EventName>(name: N, payload: z.input<Events[N]>) => void;

export interface ServiceContext {
  readonly emit: Emit;
  /** Directory for the app's data (journal, settings, embedded sandbox state). */
  readonly dataDir: string;
  /** Which shell the core runs in. */
  readonly shell: 'electron' | 'chromium';
}
