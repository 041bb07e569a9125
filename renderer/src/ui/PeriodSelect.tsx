import { useState } from 'react';
import { startOfDayInZone } from '../../../shared/format/time';
import { customRange, PERIOD_PRESETS, type Period, type PeriodDays } from '../lib/period';
import { usePrefs } from '../lib/prefs';
import { Button } from './Button';
import { Select } from './Select';
import { TextField } from './TextField';

const CUSTOM = 'custom';

/**
 * The one history-period picker ("Last 24 hours" … "Last 12 months", or a custom range of days in
 * the display time zone); state comes from `usePeriod`.
 */
export const PeriodSelect = ({
  period,
  label = 'Period',
  maxDays,
}: {
  readonly period: Period;
  readonly label?: string;
  /** The longest period this list can show (e.g. 30 days where the platform allows no more). */
  readonly maxDays?: number;
}) => {
  const zone = usePrefs((s) => s.timeZone);
  const options = [
    ...PERIOD_PRESETS.filter((p) => maxDays === undefined || p.days <= maxDays).map((p) => ({
      value: String(p.days),
      label: p.label,
    })),
    { value: CUSTOM, label: 'Custom range…' },
  ];
  const [editing, setEditing] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<{ problem: string; field: 'from' | 'to' } | undefined>();
  const custom = editing || period.days === 'custom';
  const apply = () => {
    const result = customRange(from, to, (date) => startOfDayInZone(date, zone), Date.now(), maxDays);
    if ('problem' in result) {
      setProblem(result);
      return;
    }
    setProblem(undefined);
    setEditing(false);
    period.chooseRange(result.range);
  };
  return (
    <>
      <Select
        label={label}
        value={custom ? CUSTOM : String(period.days)}
        options={options}
        onChange={(value) => {
          if (value === CUSTOM) {
            setEditing(true);
            return;
          }
          setEditing(false);
          setProblem(undefined);
          period.choose(Number(value) as PeriodDays);
        }}
      />
      {custom ? (
        <>
          <TextField
            label={`From (${zone === 'local' ? 'local time' : zone})`}
            value={from}
            onChange={setFrom}
            placeholder="YYYY-MM-DD"
            type="date"
            error={problem?.field === 'from' ? problem.problem : undefined}
          />
          <TextField
            label="To (inclusive)"
            value={to}
            onChange={setTo}
            placeholder="YYYY-MM-DD"
            type="date"
            error={problem?.field === 'to' ? problem.problem : undefined}
          />
          <Button onClick={apply} data-testid="period-apply">
            Apply range
          </Button>
        </>
      ) : null}
    </>
  );
};
