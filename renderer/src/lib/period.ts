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
  readonly days: PeriodDays;
  readonly range: Range;
  /** Picks another preset (the period is fixed from now). */
  readonly choose: (days: PeriodDays) => void;
  /** The same preset again, up to now (Refresh). */
  readonly refresh: () => void;
}

/** The chosen period of one list; render it with `PeriodSelect` from the UI kit. */
export const usePeriod = (initialDays: PeriodDays): Period => {
  const [state, setState] = useState(() => ({ days: initialDays, range: lastDays(initialDays) }));
  return {
    days: state.days,
    range: state.range,
    choose: (days) => setState({ days, range: lastDays(days) }),
    refresh: () => setState((s) => ({ days: s.days, range: lastDays(s.days) })),
  };
};
