/**
 * Type test (checked by `npm run typecheck`, never run): a handler map that misses an operation
 * or mistypes one does not compile. If the `@ts-expect-error` lines stop being errors, tsc fails
 * with "Unused '@ts-expect-error' directive" — so this file proves the guarantee holds.
 */
import type { DeskHandlers } from '../../shared/contract';

type AppHandlers = DeskHandlers['app'];

const ping: AppHandlers['ping'] = async ({ text }) => ({ text, receivedAt: 0 });
const info: AppHandlers['info'] = async () => ({ name: 'x', version: '0', shell: 'chromium', platform: 'linux' });
const notifications = {
  settings: { enabled: true, deposits: true, withdrawals: true, pushes: true },
  available: false,
};
const locked = async () => ({ state: 'locked' as const });
const rest = {
  saveFile: async () => ({ cancelled: true as const }),
  lock: locked,
  unlock: locked,
  lockState: locked,
  notificationSettings: async () => notifications,
  setNotificationSettings: async () => notifications,
  openExternal: async () => ({ opened: false as const, reason: 'headless' }),
};

export const complete: AppHandlers = { ping, info, ...rest };

// @ts-expect-error — `info` is missing: every declared operation needs a handler.
export const missing: AppHandlers = { ping, ...rest };

export const mistyped: AppHandlers = {
  info,
  ...rest,
  // @ts-expect-error — the output breaks the contract (`receivedAt` must be a number).
  ping: async ({ text }) => ({ text, receivedAt: 'now' }),
};

export const wrongInput: AppHandlers = {
  info,
  ...rest,
  // @ts-expect-error — the input has no `message`; only what the schema declares reaches a handler.
  ping: async ({ message }) => ({ text: message, receivedAt: 0 }),
};

// @ts-expect-error — a whole area missing from the full map fails too.
export const noApp: DeskHandlers = { ...({} as Omit<DeskHandlers, 'app'>) };
