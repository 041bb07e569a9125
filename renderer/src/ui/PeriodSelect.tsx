import { PERIOD_PRESETS, type Period, type PeriodDays } from '../lib/period';
import { Select } from './Select';

const OPTIONS = PERIOD_PRESETS.map((p) => ({ value: String(p.days), label: p.label }));

/** The one history-period picker ("Last 24 hours" … "Last 12 months"); state comes from `usePeriod`. */
export const PeriodSelect = ({ period, label = 'Period' }: { readonly period: Period; readonly label?: string }) => (
  <Select
    label={label}
    value={String(period.days)}
    options={OPTIONS}
    onChange={(value) => period.choose(Number(value) as PeriodDays)}
  />
);
