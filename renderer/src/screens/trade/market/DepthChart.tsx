/**
 * The depth chart: cumulative bids (left of the mid) and asks (right) of the same book the order
 * book shows, drawn with recharts (SVG) at most four times a second (docs/decisions.md, "Depth
 * chart"). Price on the horizontal axis in the quote currency, cumulative size on the vertical axis
 * in the base currency. The numbers drawn are plain numbers; the sums and the totals written under
 * the chart are exact (shared/trade/depth.ts).
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Area, AreaChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { BookSides } from '../../../../../shared/trade/book';
import { type DepthCurve, depthCurve } from '../../../../../shared/trade/depth';
import { formatBase, formatPrice } from '../../../lib/format';

/** At most four redraws a second: the book changes up to 50 times a second when streamed. */
export const DEPTH_REDRAW_MS = 250;

/**
 * `value` as it was at most `ms` ago: the first change shows at once, later ones at most once per
 * `ms`, always ending on the latest value.
 */
export const useThrottled = <T,>(value: T, ms: number): T => {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  const lastShown = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (value === shown || timer.current !== undefined) return;
    const wait = Math.max(0, lastShown.current + ms - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      lastShown.current = Date.now();
      setShown(latest.current);
    }, wait);
  }, [value, shown, ms]);
  useEffect(
    () => () => {
      if (timer.current !== undefined) clearTimeout(timer.current);
    },
    [],
  );
  return shown;
};

export interface DepthChartProps {
  book: BookSides;
  base: string;
  quote: string;
  /** The pair's price decimals (axis ticks and the mid). */
  precision: number;
  amountPrecision: number;
  /** Fixed size (tests); otherwise the chart takes its box's width. */
  width?: number;
  height?: number;
}

const AXIS_TICK = { fill: 'var(--text-muted)', fontSize: 11 };

function DepthPlot({
  curve,
  base,
  quote,
  precision,
  amountPrecision,
  width,
  height,
}: { curve: DepthCurve } & Omit<DepthChartProps, 'book'>) {
  // Plot coordinates are numbers; each label is written as the book writes a price and an amount.
  const scale = { base, quote, precision, amountPrecision };
  const price = (value: number) => formatPrice(value.toFixed(precision), scale);
  const size = (value: number) => formatBase(value.toFixed(amountPrecision), scale);
  return (
    <AreaChart
      data={curve.points}
      {...(width !== undefined ? { width, height: height ?? 220 } : { responsive: true })}
      style={width !== undefined ? undefined : { width: '100%', height: height ?? 220 }}
      margin={{ top: 8, right: 12, bottom: 24, left: 12 }}
    >
      <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
      <XAxis
        dataKey="price"
        type="number"
        domain={curve.domain ?? ['dataMin', 'dataMax']}
        allowDataOverflow
        tickFormatter={price}
        tick={AXIS_TICK}
        minTickGap={24}
        label={{ value: `Price (${quote})`, position: 'insideBottom', offset: -16, fill: 'var(--text-muted)' }}
      />
      <YAxis
        tickFormatter={size}
        tick={AXIS_TICK}
        width={72}
        label={{ value: `Size (${base})`, angle: -90, position: 'insideLeft', fill: 'var(--text-muted)' }}
      />
      <Tooltip
        isAnimationActive={false}
        labelFormatter={(value) => `Price ${formatPrice(Number(value).toFixed(precision), scale, { unit: true })}`}
        formatter={(value, name) => [
          formatBase(Number(value).toFixed(amountPrecision), scale, { unit: true }),
          name === 'bids' ? 'Bids (cumulative)' : 'Asks (cumulative)',
        ]}
        contentStyle={{ background: 'var(--bg-raised)', color: 'var(--text)', border: '1px solid var(--border)' }}
      />
      {curve.mid !== undefined ? <ReferenceLine x={Number(curve.mid)} stroke="var(--text-muted)" /> : null}
      <Area
        type="stepBefore"
        dataKey="bids"
        name="bids"
        stroke="var(--good)"
        fill="var(--good-bg)"
        fillOpacity={1}
        isAnimationActive={false}
        dot={false}
        activeDot={false}
        connectNulls={false}
      />
      <Area
        type="stepAfter"
        dataKey="asks"
        name="asks"
        stroke="var(--bad)"
        fill="var(--bad-bg)"
        fillOpacity={1}
        isAnimationActive={false}
        dot={false}
        activeDot={false}
        connectNulls={false}
      />
    </AreaChart>
  );
}

/**
 * Memoised on the book: it re-renders with every book change only to note the newest book; the
 * curve is computed and the SVG redrawn on the throttle's tick.
 */
export const DepthChart = memo(function DepthChart(props: DepthChartProps) {
  const { book, base, quote, precision, amountPrecision, width, height } = props;
  const shown = useThrottled(book, DEPTH_REDRAW_MS);
  const curve = useMemo(() => depthCurve(shown), [shown]);
  const scale = useMemo(() => ({ base, quote, precision, amountPrecision }), [base, quote, precision, amountPrecision]);
  const plot = useMemo(
    () => (
      <DepthPlot
        curve={curve}
        base={base}
        quote={quote}
        precision={precision}
        amountPrecision={amountPrecision}
        {...(width !== undefined ? { width } : {})}
        {...(height !== undefined ? { height } : {})}
      />
    ),
    [curve, base, quote, precision, amountPrecision, width, height],
  );
  const summary = useMemo(
    () => (
      <p className="depth-summary" data-testid="depth-summary">
        <span className="text-buy" data-testid="depth-bids">
          Bids {formatBase(curve.bidTotal, scale, { unit: true })}
          {curve.lowestBid !== undefined ? ` down to ${formatPrice(curve.lowestBid, scale, { unit: true })}` : ''}
        </span>
        {' · '}
        <span data-testid="depth-mid">
          Mid {curve.mid !== undefined ? formatPrice(curve.mid, scale, { unit: true }) : '—'}
        </span>
        {' · '}
        <span className="text-sell" data-testid="depth-asks">
          Asks {formatBase(curve.askTotal, scale, { unit: true })}
          {curve.highestAsk !== undefined ? ` up to ${formatPrice(curve.highestAsk, scale, { unit: true })}` : ''}
        </span>
      </p>
    ),
    [curve, scale],
  );
  return (
    <section
      className="depth-chart"
      aria-label="Depth chart"
      data-testid="depth-chart"
      data-points={curve.points.length}
    >
      {curve.points.length === 0 ? <p className="muted">The book is empty.</p> : plot}
      {summary}
    </section>
  );
});
