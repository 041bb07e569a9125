/**
 * Test support: a "core process" that runs in the test's own process, joined to its shell by an
 * in-memory pair of ports. Every message is structured-cloned on the way and delivered on a later
 * turn, as a process boundary would; `kill()` drops the core as a crash would (nothing more leaves
 * it, the shell sees the exit) and then closes it so its data folder is free again. The protocol and
 * the supervisor are tested on it; one real fork is tested in remoteCore.test.ts.
 */
import type { ChannelMessage } from '../../shared/ipc/channel';
import { type ParentPort, runCoreProcess, type WindowPort } from '../host/coreProcess';
import type { CoreChannel, FromCore, LaunchCore, ToCore } from '../host/messages';

type Deliver<M> = (message: M, ports: readonly WindowPort[]) => void;

export interface InMemoryLaunch extends LaunchCore {
  /** The cores started so far (a restart adds one). */
  readonly started: number;
  /** Waits until every core this launcher started has closed (what `close()` left running). */
  settled(): Promise<void>;
}

export const inMemoryCoreLauncher = (): InMemoryLaunch => {
  let started = 0;
  const closing: Promise<void>[] = [];
  const launch = (): CoreChannel => {
    started += 1;
    let alive = true;
    const toShell: ((message: FromCore | ChannelMessage) => void)[] = [];
    const toCore: Deliver<ToCore | ChannelMessage>[] = [];
    const exits: ((code: number | null, signal: string | null) => void)[] = [];
    const end = (code: number | null, signal: string | null) => {
      if (!alive) return;
      alive = false;
      for (const listener of exits) listener(code, signal);
    };
    const port: ParentPort = {
      post: (message) => {
        const copy = structuredClone(message);
        setImmediate(() => {
          if (alive) for (const listener of toShell) listener(copy);
        });
      },
      onMessage: (listener) => {
        toCore.push(listener);
      },
      onGone: () => {},
    };
    const core = runCoreProcess(port, { exit: (code) => setImmediate(() => end(code, null)) });
    return {
      send: (message) => {
        const copy = structuredClone(message);
        setImmediate(() => {
          if (alive) for (const listener of toCore) listener(copy, []);
        });
      },
      onMessage: (listener) => {
        toShell.push(listener);
      },
      onExit: (listener) => {
        exits.push(listener);
      },
      pid: undefined,
      kill: () => {
        if (!alive) return;
        end(null, 'SIGKILL');
        closing.push(core.abandon());
      },
    };
  };
  return Object.defineProperties(launch as InMemoryLaunch, {
    started: { get: () => started },
    settled: {
      value: async () => {
        await Promise.all(closing);
      },
    },
  });
};
