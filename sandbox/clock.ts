/**
 * The sandbox's clocks.
 *  - Business time (`now()`): record timestamps and the status pipelines. `real` mode follows the
 *    wall clock; `manual` mode is frozen at start and moves only with POST /sandbox/advance.
 *  - Server time (`serverTimeMs()`, what GET /spot/time answers): the later of the wall clock and
 *    business time, plus the skew set with POST /sandbox/clock. A record's time is never ahead of
 *    the server's own time, however far the manual clock was advanced.
 *  - Wall time (`wallTimeMs()`): the wall clock plus the skew. The Timestamp check accepts a request
 *    near either, so advancing the business clock never makes a client that did not re-sync expire.
 *  - Limiter time (`limiterNowMs()`): the wall clock plus everything advanced, so a test can skip a
 *    rate-limit window (e.g. POST /withdrawals' 3 s) without sleeping.
 * Tick listeners run after every advance, and once a second in real mode.
 */
export type ClockMode = 'real' | 'manual';

export class SandboxClock {
  private advancedMs = 0;
  private skewMs = 0;
  private readonly frozenAt = Date.now();
  private readonly listeners = new Set<(now: number) => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly mode: ClockMode) {
    if (mode === 'real') {
      this.timer = setInterval(() => this.tick(), 1000);
      this.timer.unref();
    }
  }

  /** Business time, Unix milliseconds. */
  now(): number {
    return (this.mode === 'manual' ? this.frozenAt : Date.now()) + this.advancedMs;
  }

  /** The server's own time (GET /spot/time), Unix milliseconds: never behind a record it wrote. */
  serverTimeMs(): number {
    return Math.max(Date.now(), this.now()) + this.skewMs;
  }

  /** The wall clock plus the skew, Unix milliseconds. */
  wallTimeMs(): number {
    return Date.now() + this.skewMs;
  }

  limiterNowMs(): number {
    return Date.now() + this.advancedMs;
  }

  get skewSeconds(): number {
    return this.skewMs / 1000;
  }

  /** Moves business time forward and runs the pipelines. */
  advance(seconds: number): void {
    this.advancedMs += Math.round(seconds * 1000);
    this.tick();
  }

  /** Skews the server's wall time (clock-skew tests); 0 restores it. */
  setSkew(offsetSeconds: number): void {
    this.skewMs = Math.round(offsetSeconds * 1000);
  }

  /** Registers a listener called with business time on every tick; returns the unsubscribe function. */
  onTick(listener: (now: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tick(): void {
    const now = this.now();
    for (const listener of this.listeners) {
      try {
        listener(now);
      } catch (error) {
        // A failing listener must not stop the others nor crash the process from a timer.
        process.stderr.write(
          `${JSON.stringify({ msg: 'clock listener failed', error: String((error as Error)?.stack ?? error) })}\n`,
        );
      }
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.listeners.clear();
  }
}
