/**
 * The Overview's two charts. Their own chunk (recharts and its d3 are about half of the first
 * screen's code): Overview loads them with React.lazy, so the total and the spot balances paint
 * without waiting for the chart library (issue 26). Chart geometry uses numbers; every amount shown
 * as text is the formatter's.
 */
import Decimal from 'decimal.js';
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ValuationCurrency } from '../../../../shared/contract/balances';
import { formatValue } from '../../lib/format';
import { axisValue } from './totals';

/** The total by account type, one bar each. */
export function TotalByAccountChart({
  data,
  currency,
}: {
  readonly data: readonly { readonly name: string; readonly value: number }[];
  readonly currency: ValuationCurrency;
}) {
  return (
    <BarChart
      width={420}
      height={Math.max(140, data.length * 36 + 40)}
      data={[...data]}
      layout="vertical"
      margin={{ bottom: 16 }}
    >
      <CartesianGrid strokeDasharray="3 3" horizontal={false} />
      <XAxis
        type="number"
        tickFormatter={(v: number) => axisValue(v, currency)}
        label={{ value: `Value (${currency})`, position: 'insideBottom', offset: -8 }}
      />
      <YAxis type="category" dataKey="name" width={130} />
      <Tooltip formatter={(v) => formatValue(new Decimal(Number(v)).toFixed(), currency)} />
      <Bar dataKey="value" name={`Value in ${currency}`} fill="var(--accent, #3b82f6)" isAnimationActive={false} />
    </BarChart>
  );
}

/** The total over time, one point per reading; `text` is the reading as the tooltip says it. */
export function TotalHistoryChart({
  data,
  currency,
}: {
  readonly data: readonly { readonly label: string; readonly value: number; readonly text: string }[];
  readonly currency: ValuationCurrency;
}) {
  return (
    <LineChart width={640} height={220} data={[...data]}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="label" minTickGap={40} />
      <YAxis width={90} domain={['auto', 'auto']} tickFormatter={(v: number) => axisValue(v, currency)} />
      <Tooltip formatter={(_v, _name, item) => [(item.payload as { text: string }).text, 'Total']} />
      <Line
        type="monotone"
        dataKey="value"
        name={`Total (${currency})`}
        dot={false}
        isAnimationActive={false}
        stroke="var(--accent, #3b82f6)"
      />
    </LineChart>
  );
}
