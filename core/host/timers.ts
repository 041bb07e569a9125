/**
 * The channel's timers in a Node process (shared/ipc/channel.ts takes time as a dependency). A
 * call's timeout never keeps the process alive on its own.
 */
import type { ChannelTimers } from '../../shared/ipc/channel';

export const nodeTimers = (): ChannelTimers => ({
  now: () => performance.now(),
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  defer: (run) => setImmediate(run),
  cancellation: () => new AbortController(),
});
