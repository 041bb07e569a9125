/**
 * The sandbox's clocks.
 *  - Business time (`now()`): record timestamps and the status pipelines. `real` mode follows the
 *    wall clock; `manual` mode is frozen at start and moves only with POST /sandbox/advance.
 *  - Server time (`serverTimeMs()`, what GET /spot/time answers): the later of the wall clock and
 *    business time, plus the skew set with POST /sandbox/clock. A record's time is never ahead of
 *    the server's own time, however far the manual clock was advanced.
 *  - Wall time (`wallTimeMs()`): the wall clock plus the skew.
 *  - The one rule for a client's time (`timestampAccepted()`), used by signed REST requests
 *    (`Timestamp`) and private WebSocket channels (`time`) alike, in every clock mode: within
 *    TIMESTAMP_WINDOW_S of the server time or of the wall time. The two differ only after the business
 *    clock was advanced, so a client that synced with GET /spot/time and one that did not both keep
 *    working, over REST and the stream the same way.
 *  - Limiter time (`limiterNowMs()`): the wall clock plus everything advanced, so a test can skip a
 *    rate-limit window (e.g. POST /withdrawals' 3 s) without sleeping.
 * Tick listeners run after every advance, and once a second in real mode.
 */
export type ClockMode = 'real' | 'manual';

/** How far a client's time may be from the server's (REST `Timestamp`, WebSocket `time`), in seconds. */
export const TIMESTAMP_WINDOW_S = 60;

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

  /** Whether a client's time (Unix seconds) is near enough to the server's: see the header comment. */
  timestampAccepted(sentSeconds: number): boolean {
    const sentMs = sentSeconds * 1000;
    const windowMs = TIMESTAMP_WINDOW_S * 1000;
    return Math.abs(this.serverTimeMs() - sentMs) <= windowMs || Math.abs(this.wallTimeMs() - sentMs) <= windowMs;
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
