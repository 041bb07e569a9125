/**
 * The platform's clock as seen from here. A desktop cannot assume NTP (users.md §3.2), so the
 * platform's time is measured against GET /spot/time on connect and applied to every Timestamp
 * header and every comparison with the platform's own record times.
 *
 * Between measurements the platform's time runs on the **monotonic** clock from the last reading:
 * a step of this computer's wall clock (NTP after a resume, a person fixing the time zone, a VM
 * restored) does not move it. The wall clock is only compared with it, to notice such a step — or
 * a suspend, which the monotonic clock does not count — and then `needsMeasuring()` says the
 * reading should be taken again before it is trusted (the client and the movement journal do).
 */
import { type Scheduler, systemScheduler } from '../scheduler';

/** Beyond this the app warns: the OS clock is wrong enough to matter elsewhere too. */
export const LARGE_OFFSET_MS = 5_000;

/**
 * The wall and monotonic clocks may drift apart this much before the reading is taken again (NTP
 * slews a clock by at most 0.5 ms a second; a step or a suspend is seconds to hours).
 */
export const STEP_TOLERANCE_MS = 1_000;

export interface ClockMeasurement {
  /** Server time minus this computer's wall clock, in ms, when measured (positive: the local clock is behind). */
  readonly offsetMs: number;
  /** Round trip of the measurement, in ms (its uncertainty is half of it). */
  readonly rttMs: number;
  /** When it was measured, on this computer's wall clock (ms since the epoch). */
  readonly measuredAt: number;
}

export class PlatformClock {
  private measurement: ClockMeasurement | undefined;
  /** The platform's time (ms) at a monotonic instant: the platform's clock runs on from there. */
  private anchor: { readonly platformMs: number; readonly monotonicMs: number } | undefined;

  constructor(private readonly time: Pick<Scheduler, 'now' | 'wallNow'> = systemScheduler()) {}

  /** The platform's time minus this computer's wall clock now, ms (0 before the first measurement). */
  get offsetMs(): number {
    return this.anchor === undefined ? 0 : this.now() - this.time.wallNow();
  }

  get last(): ClockMeasurement | undefined {
    return this.measurement;
  }

  /**
   * The platform's time in ms, once measured; undefined before the first measurement, where `now()`
   * could only guess it from this computer's wall clock (which may be minutes off). For what must
   * not rest on that guess: a pause, an age, a time recorded to be compared after a restart.
   */
  measuredNow(): number | undefined {
    return this.anchor === undefined ? undefined : this.now();
  }

  /** The platform's time in ms (before any measurement: this computer's wall clock). */
  now(): number {
    if (this.anchor === undefined) return this.time.wallNow();
    return this.anchor.platformMs + (this.time.now() - this.anchor.monotonicMs);
  }

  /** How far this computer's wall clock moved against the platform's since the measurement, ms. */
  wallStepMs(): number {
    return this.measurement === undefined ? 0 : this.measurement.offsetMs - this.offsetMs;
  }

  /** Never measured, or the wall clock stepped (or the computer slept) since: measure before trusting it. */
  needsMeasuring(): boolean {
    return this.measurement === undefined || Math.abs(this.wallStepMs()) > STEP_TOLERANCE_MS;
  }

  /** Timestamp header value: whole seconds of platform time. */
  timestampHeader(): string {
    return String(Math.floor(this.now() / 1000));
  }

  /** Measures with one call to the server's clock (its time taken at the round trip's midpoint). */
  async measure(serverTimeMs: () => Promise<number>): Promise<ClockMeasurement> {
    const t0 = this.time.now();
    const server = await serverTimeMs();
    const t1 = this.time.now();
    const rttMs = t1 - t0;
    this.anchor = { platformMs: server + rttMs / 2, monotonicMs: t1 };
    const wall = this.time.wallNow();
    this.measurement = { offsetMs: Math.round(this.anchor.platformMs - wall), rttMs, measuredAt: wall };
    return this.measurement;
  }

  isLarge(): boolean {
    return Math.abs(this.offsetMs) >= LARGE_OFFSET_MS;
  }
}
