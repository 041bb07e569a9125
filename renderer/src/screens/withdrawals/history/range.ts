/**
 * History ranges offered on the funding screens. A range is fixed when chosen (and on Refresh), so
 * the query key stays stable between renders; main splits long ranges into the platform's 30-day
 * windows.
 */
export const RANGE_PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const;

export type RangeDays = (typeof RANGE_PRESETS)[number]['days'];

export interface Range {
  readonly from: number;
  readonly to: number;
}

/** Margin past now at the end of a range: records stamped by a platform clock running ahead still show. */
const FUTURE_MARGIN_SECONDS = 3600;

/** The last `days` days up to now, in Unix seconds (the end is a minute boundary plus the margin). */
export const lastDays = (days: number, nowMs: number = Date.now()): Range => {
  const end = Math.ceil(nowMs / 60_000) * 60;
  return { from: end - days * 86_400, to: end + FUTURE_MARGIN_SECONDS };
};

export const rangeOptions = RANGE_PRESETS.map((p) => ({ value: String(p.days), label: p.label }));
