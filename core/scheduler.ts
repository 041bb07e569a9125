/**
 * Time as a dependency. Every area of the core that waits, repeats or asks "how long ago" takes the
 * one `Scheduler` given to `createCore` (CoreOptions.scheduler) instead of calling setTimeout,
 * Date.now or performance.now itself, so that:
 *
 * - within one process every wait and every elapsed time is measured on a **monotonic** clock
 *   (`now()`), which a step of the computer's clock (NTP after a resume, a person fixing the time
 *   zone, a VM restored) cannot move; the wall clock (`wallNow()`) is read only for what is shown or
 *   stored for people, and, through the API client's PlatformClock, where the platform's own
 *   timestamps are compared (signing, lookups by time);
 * - tests drive time by hand (`testing/scheduler.ts`: advance, run what is due, step the wall clock
 *   apart from the monotonic one) and wait for `core.idle()` instead of sleeping;
 * - the core knows when it is idle: nothing due and no work in flight (`track`).
 *
 * An area with background work is a `Service`: built stopped, `start()`ed by the core once
 * everything is composed, `stop()`ped on close (its timers cancelled, its work let finish) —
 * the shape of Actual's `app.service()`.
 */

export interface Timer {
  /** Stops the timer; calling it again, or after the timer fired, does nothing. */
  cancel(): void;
}

/**
 * `background`: the timer never keeps the process alive by itself (a poll, a retry, a periodic
 * check). Without it a pending timer does, as Node's own do: someone awaits it (a sleep, a wait for
 * a rate-limit slot).
 */
export interface TimerOptions {
  readonly background?: boolean;
}

export interface Scheduler {
  /** Monotonic milliseconds (never steps; its zero is arbitrary): every wait and elapsed time. */
  now(): number;
  /** This computer's wall clock, milliseconds since the epoch: shown, stored, compared via PlatformClock. */
  wallNow(): number;
  /** Calls `callback` once, `delayMs` from now (monotonic). */
  setTimeout(callback: () => void, delayMs: number, options?: TimerOptions): Timer;
  /** Calls `callback` every `everyMs` until cancelled. */
  setInterval(callback: () => void, everyMs: number, options?: TimerOptions): Timer;
  /** Resolves `ms` from now; rejects with an AbortError when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Counts `work` as in flight until it settles (`idle()` waits for it); returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Resolves once no timer is due and no tracked work is in flight. */
  idle(): Promise<void>;
  /** Whether a timer is due or tracked work is in flight right now. */
  busy(): boolean;
}

/** An area with background work (timers, polls, reconnects): see the file's comment. */
export interface Service {
  start(): void;
  stop(): void | Promise<void>;
}

/** The options of a background timer (see TimerOptions). */
export const BACKGROUND: TimerOptions = { background: true };

export const abortError = (): Error => Object.assign(new Error('cancelled'), { name: 'AbortError' });

/** One timer: when it is next due, and how it fires (set by the scheduler that armed it). */
export interface TimerEntry {
  dueAt: number;
  readonly everyMs: number | undefined;
  readonly background: boolean;
  /** Runs the callback (and re-arms an interval). */
  readonly fire: () => void;
}

/**
 * What both schedulers share: the table of armed timers (for "is anything due?") and the work in
 * flight. Subclasses say how a timer is armed on the real event loop (or left for `advance`).
 */
export abstract class BaseScheduler implements Scheduler {
  protected readonly timers = new Set<TimerEntry>();
  protected readonly inFlight = new Set<Promise<unknown>>();

  abstract now(): number;
  abstract wallNow(): number;
  /** Arms `entry` to fire in `delayMs`; returns what disarms it. */
  protected abstract arm(entry: TimerEntry, delayMs: number): () => void;
  /** Lets the event loop run once (due timers fire, I/O callbacks run). */
  protected abstract turn(): Promise<void>;

  setTimeout(callback: () => void, delayMs: number, options: TimerOptions = {}): Timer {
    return this.add(callback, Math.max(0, delayMs), undefined, options.background === true);
  }

  setInterval(callback: () => void, everyMs: number, options: TimerOptions = {}): Timer {
    const every = Math.max(1, everyMs);
    return this.add(callback, every, every, options.background === true);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const onAbort = () => {
        timer.cancel();
        reject(abortError());
      };
      const timer = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return work;
  }

  /** Whether a timer's time has come (it fires at once) or tracked work is still running. */
  busy(): boolean {
    if (this.inFlight.size > 0) return true;
    const now = this.now();
    for (const entry of this.timers) if (entry.dueAt <= now) return true;
    return false;
  }

  async idle(): Promise<void> {
    // Settled work may start the next (a poll arms a timer, a drive sends a request): idle only
    // after a full turn of the event loop with nothing due and nothing in flight.
    for (;;) {
      if (this.inFlight.size > 0) {
        await Promise.all([...this.inFlight]);
        continue;
      }
      await this.turn();
      if (!this.busy()) return;
    }
  }

  private add(callback: () => void, delayMs: number, everyMs: number | undefined, background: boolean): Timer {
    let cancelled = false;
    let disarm = () => {};
    const entry: TimerEntry = {
      dueAt: this.now() + delayMs,
      everyMs,
      background,
      fire: () => {
        if (cancelled) return;
        if (everyMs === undefined) this.timers.delete(entry);
        else {
          entry.dueAt = this.now() + everyMs;
          disarm = this.arm(entry, everyMs);
        }
        callback();
      },
    };
    this.timers.add(entry);
    disarm = this.arm(entry, delayMs);
    return {
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        disarm();
        this.timers.delete(entry);
      },
    };
  }
}

/**
 * The real clocks: `performance.now()` (monotonic) and `Date.now()`; timers on the event loop
 * (a background one unreferenced: it never keeps the process alive by itself).
 */
export class SystemScheduler extends BaseScheduler {
  now(): number {
    return performance.now();
  }

  wallNow(): number {
    return Date.now();
  }

  protected arm(entry: TimerEntry, delayMs: number): () => void {
    const handle = setTimeout(entry.fire, delayMs);
    if (entry.background) handle.unref?.();
    return () => clearTimeout(handle);
  }

  protected turn(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
}

export const systemScheduler = (): Scheduler => new SystemScheduler();
