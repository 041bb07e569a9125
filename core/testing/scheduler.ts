/**
 * Schedulers for tests (see scheduler.ts for the one the app runs on).
 *
 * `ManualScheduler`: time moves only when the test says so. `advance(ms)` moves both clocks, firing
 * every timer that falls due on the way at its own time, in order, and lets what each one starts
 * finish before the next; `jump(ms)` moves both clocks without firing anything yet (for a fake
 * platform that "takes" 25 s to answer); `stepWall(ms)` steps the wall clock alone, forward or back,
 * as NTP or a person setting the time does, while the monotonic clock goes on. `idle()` fires what
 * is due now and lets every promise chain that does not wait for time finish; work waiting for a
 * timer stays pending until time moves. With `autoAdvance`, whenever the test is awaiting something
 * the next timer fires without a real wait (one per real millisecond), so code that pauses between
 * its own steps runs through its pauses in order and instantly.
 *
 * `SteppedWallScheduler`: the real clocks and event loop, with a wall clock the test can step —
 * for whole cores against a real sandbox, whose requests take real time.
 */
import { BaseScheduler, SystemScheduler, type TimerEntry } from '../scheduler';

/** Turns of the event loop with nothing happening after which chains not waiting for time are done. */
const QUIET_TURNS = 5;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ManualSchedulerOptions {
  /** The wall clock at start, ms since the epoch (default 2027-01-15T09:00:00Z). */
  readonly wallStart?: number;
  /** The monotonic clock at start (default 1 000 000: never zero, like a process that has run a while). */
  readonly monotonicStart?: number;
  /** Fire the next timer by itself, one per real millisecond (see the file's comment). */
  readonly autoAdvance?: boolean;
}

export class ManualScheduler extends BaseScheduler {
  private monotonic: number;
  private wall: number;
  private readonly pump: ReturnType<typeof setInterval> | undefined;
  /** Counts timers fired and work settled: "did anything happen?" for `flush`. */
  private events = 0;

  constructor(options: ManualSchedulerOptions = {}) {
    super();
    this.monotonic = options.monotonicStart ?? 1_000_000;
    this.wall = options.wallStart ?? Date.UTC(2027, 0, 15, 9);
    if (options.autoAdvance) {
      this.pump = setInterval(() => {
        const next = this.nextEntry();
        if (next === undefined) return;
        this.moveTo(next.dueAt);
        this.fireDue();
      }, 1);
    }
  }

  now(): number {
    return this.monotonic;
  }

  wallNow(): number {
    return this.wall;
  }

  /** Stops the automatic advance (call it after the test). */
  close(): void {
    clearInterval(this.pump);
  }

  /** Both clocks forward by `ms` at once; timers now due fire at the next advance, idle or pump. */
  jump(ms: number): void {
    this.moveTo(this.monotonic + ms);
  }

  /** The wall clock alone moves by `ms` (negative: back); the monotonic clock does not. */
  stepWall(ms: number): void {
    this.wall += ms;
  }

  /** Both clocks forward by `ms`, firing each timer due on the way at its time, settling between. */
  async advance(ms: number): Promise<void> {
    const target = this.monotonic + Math.max(0, ms);
    for (;;) {
      await this.idle();
      const next = this.nextEntry();
      if (next === undefined || next.dueAt > target) break;
      this.moveTo(next.dueAt);
    }
    this.moveTo(target);
    await this.idle();
  }

  /**
   * Advances timer by timer until `condition()` holds; throws after `maxMs` of (manual) time. For a
   * wait whose length the test does not need to know (a backoff, a retry).
   */
  async advanceUntil(condition: () => boolean, maxMs = 60 * 60_000): Promise<void> {
    const until = this.monotonic + maxMs;
    await this.idle();
    while (!condition()) {
      const next = this.nextEntry();
      if (next === undefined || next.dueAt > until) {
        throw new Error(`not so after ${maxMs} ms of scheduler time (${next ? 'next timer later' : 'no timer left'})`);
      }
      this.moveTo(next.dueAt);
      await this.idle();
    }
  }

  /** Fires what is due now; resolves when nothing is due and every chain not waiting for time is done. */
  override async idle(): Promise<void> {
    let quiet = 0;
    while (quiet < QUIET_TURNS) {
      const before = this.events;
      this.fireDue();
      if (this.inFlight.size > 0) {
        await Promise.race([Promise.all([...this.inFlight]), nextTurn()]);
      } else {
        await nextTurn();
      }
      quiet = this.events === before && !this.dueNow() ? quiet + 1 : 0;
    }
  }

  /** How many timers are armed (a test that expects a component to be quiet checks it). */
  pendingTimers(): number {
    return this.timers.size;
  }

  override track<T>(work: Promise<T>): Promise<T> {
    void work.then(
      () => this.events++,
      () => this.events++,
    );
    return super.track(work);
  }

  protected arm(_entry: TimerEntry, _delayMs: number): () => void {
    // Nothing on the real event loop: advance, idle or the pump fire it.
    return () => {};
  }

  protected turn(): Promise<void> {
    return nextTurn();
  }

  private dueNow(): boolean {
    for (const entry of this.timers) if (entry.dueAt <= this.monotonic) return true;
    return false;
  }

  private nextEntry(): TimerEntry | undefined {
    let next: TimerEntry | undefined;
    for (const entry of this.timers) if (next === undefined || entry.dueAt < next.dueAt) next = entry;
    return next;
  }

  /** Fires the due timers one at a time, earliest first (a callback may arm or cancel others). */
  private fireDue(): void {
    for (;;) {
      let due: TimerEntry | undefined;
      for (const entry of this.timers) {
        if (entry.dueAt <= this.monotonic && (due === undefined || entry.dueAt < due.dueAt)) due = entry;
      }
      if (due === undefined) return;
      this.events++;
      due.fire();
    }
  }

  private moveTo(monotonic: number): void {
    const by = monotonic - this.monotonic;
    if (by <= 0) return;
    this.monotonic = monotonic;
    this.wall += by;
  }
}

/** The real scheduler with a wall clock the test steps (`stepWall`), as NTP or a person would. */
export class SteppedWallScheduler extends SystemScheduler {
  private offsetMs = 0;

  override wallNow(): number {
    return Date.now() + this.offsetMs;
  }

  stepWall(ms: number): void {
    this.offsetMs += ms;
  }
}
