/**
 * History periods offered on the screens that list past records (withdrawals, deposits, UID
 * transfers, activity). A period is fixed when chosen (and on Refresh), so a query key built from it
 * stays stable between renders; main splits long periods into the platform's 30-day windows.
 */
import { useState } from 'react';

export const PERIOD_PRESETS = [
  { days: 1, label: 'Last 24 hours' },
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const;

export type PeriodDays = (typeof PERIOD_PRESETS)[number]['days'];

/** A period in Unix seconds (the platform's unit). */
export interface Range {
  readonly from: number;
  readonly to: number;
}

/** Margin past now at the end of a period: records stamped by a platform clock running ahead still show. */
const FUTURE_MARGIN_SECONDS = 3600;

/** The last `days` days up to now, in Unix seconds (the end is a minute boundary plus the margin). */
export const lastDays = (days: number, nowMs: number = Date.now()): Range => {
  const end = Math.ceil(nowMs / 60_000) * 60;
  return { from: end - days * 86_400, to: end + FUTURE_MARGIN_SECONDS };
};

export interface Period {
  /** A preset, or 'custom' for a range of whole days the person chose. */
  readonly days: PeriodDays | 'custom';
  readonly range: Range;
  /** Picks another preset (the period is fixed from now). */
  readonly choose: (days: PeriodDays) => void;
  /** A custom range (Unix seconds, from the start of the first day to the end of the last). */
  readonly chooseRange: (range: Range) => void;
  /** The same preset again, up to now (Refresh); a custom range stays as chosen. */
  readonly refresh: () => void;
}

/** The chosen period of one list; render it with `PeriodSelect` from the UI kit. */
export const usePeriod = (initialDays: PeriodDays): Period => {
  const [state, setState] = useState<{ days: PeriodDays | 'custom'; range: Range }>(() => ({
    days: initialDays,
    range: lastDays(initialDays),
  }));
  return {
    days: state.days,
    range: state.range,
    choose: (days) => setState({ days, range: lastDays(days) }),
    chooseRange: (range) => setState({ days: 'custom', range }),
    refresh: () => setState((s) => (s.days === 'custom' ? { ...s } : { days: s.days, range: lastDays(s.days) })),
  };
};

/**
 * A custom range typed as two dates ("YYYY-MM-DD", in the display time zone): from the start of
 * `from` to the end of `to`, in Unix seconds, or what is wrong with it in words.
 */
export const customRange = (
  from: string,
  to: string,
  startOfDay: (date: string) => number | undefined,
  nowMs: number = Date.now(),
  maxDays?: number,
): { range: Range } | { problem: string; field: 'from' | 'to' } => {
  const start = startOfDay(from);
  if (start === undefined) return { problem: 'Enter the first day (YYYY-MM-DD).', field: 'from' };
  const endStart = startOfDay(to);
  if (endStart === undefined) return { problem: 'Enter the last day (YYYY-MM-DD).', field: 'to' };
  if (endStart < start) return { problem: 'The last day is before the first.', field: 'to' };
  if (start > nowMs) return { problem: 'The first day is in the future.', field: 'from' };
  if (maxDays !== undefined && (endStart - start) / 86_400_000 + 1 > maxDays) {
    return { problem: `Choose at most ${maxDays} days here.`, field: 'to' };
  }
  return { range: { from: Math.floor(start / 1000), to: Math.floor(endStart / 1000) + 86_400 - 1 } };
};
