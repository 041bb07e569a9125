/**
 * The app lock as main enforces it (the renderer's lock screen only hides things). While locking
 * or locked, the dispatcher refuses every operation outside `app` with LOCKED; locking first lets
 * every operation already running finish — a money movement is never cut — and only then has the
 * core forget its signing secrets. Unlocking has the core read them again from the keychain.
 */
import type { LockState } from '../../shared/contract/app';

export interface AppLockHooks {
  /** Waits until nothing runs in the background that must not be cut (money movements). */
  settle(): Promise<void>;
  /** Forgets what the lock protects (the signing secrets in memory). */
  secure(): void;
  /** Brings it back (reads the keychain); a throw leaves the app locked. */
  restore(): Promise<void>;
  readonly now?: () => number;
}

/** What the dispatcher needs: whether it is closed, and a way to count calls in flight. */
export interface LockGate {
  /** True while locking or locked. */
  readonly closed: boolean;
  /** Runs one operation, counted so that locking waits for it. */
  track<T>(run: () => Promise<T>): Promise<T>;
}

export class AppLock implements LockGate {
  private state: LockState['state'] = 'unlocked';
  private reason: LockState['reason'];
  private since: number | undefined;
  private readonly running = new Set<Promise<unknown>>();
  /** Lock and unlock run one after the other, never interleaved. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly hooks: AppLockHooks) {}

  get closed(): boolean {
    return this.state !== 'unlocked';
  }

  /** Calls in flight (for tests and the log). */
  get inFlight(): number {
    return this.running.size;
  }

  track<T>(run: () => Promise<T>): Promise<T> {
    const promise = run();
    this.running.add(promise);
    const done = () => this.running.delete(promise);
    promise.then(done, done);
    return promise;
  }

  view(): LockState {
    return {
      state: this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.since !== undefined ? { since: this.since } : {}),
    };
  }

  /** Closes the gate at once; resolves when locked (after what was running has settled). */
  lock(reason: NonNullable<LockState['reason']>): Promise<LockState> {
    const begin = () => {
      if (this.state !== 'unlocked') return;
      this.state = 'locking';
      this.reason = reason;
      this.since = (this.hooks.now ?? Date.now)();
    };
    begin(); // the gate closes now, not when the queue gets here
    return this.enqueue(async () => {
      begin(); // an unlock queued before this lock may have reopened it meanwhile
      if (this.state !== 'locking') return;
      try {
        // Calls first (a withdrawal being sent is one), then what they left running in the background.
        while (this.running.size > 0) await Promise.allSettled([...this.running]);
        await this.hooks.settle();
      } finally {
        this.hooks.secure();
        this.state = 'locked';
      }
    });
  }

  /** Resolves unlocked, or rejects (still locked) when the secrets cannot be read back. */
  unlock(): Promise<LockState> {
    return this.enqueue(async () => {
      if (this.state === 'unlocked') return;
      await this.hooks.restore();
      this.state = 'unlocked';
      this.reason = undefined;
      this.since = undefined;
    });
  }

  private enqueue(step: () => Promise<void>): Promise<LockState> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => undefined);
    return next.then(() => this.view());
  }
}
