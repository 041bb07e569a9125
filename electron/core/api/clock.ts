/**
 * The platform's clock as seen from here. A desktop cannot assume NTP (users.md §3.2), so the
 * offset to GET /spot/time is measured on connect and applied to every Timestamp header.
 */

/** Beyond this the app warns: the OS clock is wrong enough to matter elsewhere too. */
export const LARGE_OFFSET_MS = 5_000;

export interface ClockMeasurement {
  /** Server time minus local time, in ms (positive: the local clock is behind). */
  readonly offsetMs: number;
  /** Round trip of the measurement, in ms (its uncertainty is half of it). */
  readonly rttMs: number;
  readonly measuredAt: number;
}

export class PlatformClock {
  private measurement: ClockMeasurement | undefined;

  constructor(private readonly localNow: () => number = Date.now) {}

  get offsetMs(): number {
    return this.measurement?.offsetMs ?? 0;
  }

  get last(): ClockMeasurement | undefined {
    return this.measurement;
  }

  /** Platform time in ms. */
  now(): number {
    return this.localNow() + this.offsetMs;
  }

  /** Timestamp header value: whole seconds of platform time. */
  timestampHeader(): string {
    return String(Math.floor(this.now() / 1000));
  }

  /** Measures the offset with one call to the server's clock (midpoint of the round trip). */
  async measure(serverTimeMs: () => Promise<number>): Promise<ClockMeasurement> {
    const t0 = this.localNow();
    const server = await serverTimeMs();
    const t1 = this.localNow();
    this.measurement = { offsetMs: Math.round(server - (t0 + t1) / 2), rttMs: t1 - t0, measuredAt: t1 };
    return this.measurement;
  }

  isLarge(): boolean {
    return Math.abs(this.offsetMs) >= LARGE_OFFSET_MS;
  }
}
