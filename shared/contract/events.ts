import { z } from 'zod';

/**
 * Main→renderer events, by name. Payloads are validated in main before they are sent.
 * Name them "area.somethingHappened".
 */
export const events = {
  'app.notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
};
