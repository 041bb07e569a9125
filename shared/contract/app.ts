import { z } from 'zod';
import { operation } from '../ipc/define';

/** The app itself: liveness, version, settings that are not tied to a profile. */
export const app = {
  ping: operation(
    'Round trip through the IPC bridge; echoes the text with the time main saw it.',
    z.object({ text: z.string().max(200) }).strict(),
    z.object({ text: z.string(), receivedAt: z.number() }),
  ),
  info: operation(
    'Version and runtime of the app (Electron or the Chromium fallback shell).',
    z.object({}).strict(),
    z.object({
      name: z.string(),
      version: z.string(),
      shell: z.enum(['electron', 'chromium']),
      platform: z.string(),
    }),
  ),
};
