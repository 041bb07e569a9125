/**
 * Main→renderer events leave main only through this: the payload is checked against the
 * contract's event schema first, so the renderer never receives a shape it was not promised.
 * Both transports (Electron's webContents.send, the fallback shell's event pump) plug in `send`.
 */
import { type EventName, events } from '../../shared/contract';
import type { Emit } from '../context';

export type SendEvent = (name: EventName, payload: unknown) => void;

export const createEmitter = (send: SendEvent, logError?: (event: string, error: unknown) => void): Emit => {
  return (name, payload) => {
    const schema = events[name];
    const parsed = schema === undefined ? undefined : schema.safeParse(payload);
    if (parsed === undefined || !parsed.success) {
      logError?.(name, parsed?.error ?? new Error(`Unknown event “${String(name)}”`));
      return;
    }
    send(name, parsed.data);
  };
};
