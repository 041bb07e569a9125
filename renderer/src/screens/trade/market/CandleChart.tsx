/**
 * Candles with volume (recharts). Prices reach the chart as numbers: this is drawing only, no
 * arithmetic on amounts happens here, and the axis labels are rounded for display anyway.
 */
import { memo, useMemo } from 'react';
import { Bar, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CANDLE_INTERVALS, type Candle, type CandleInterval } from '../../../../../shared/contract/trade';

interface Point {
  t: number;
  range: [number, number];
  open: number;
  close: number;
  high: number;
  low: number;
  volume: number;
  label: string;
}

interface ShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  payload?: Point;
}

/** Draws one candle inside the bar recharts lays out for [low, high]. */
const CandleShape = ({ x = 0, y = 0, width = 0, height = 0, payload }: ShapeProps) => {
  if (!payload) return null;
  const { open, close, high, low } = payload;
  const up = close >= open;
  const span = high - low || 1;
  const yOf = (v: number) => y + ((high - v) / span) * height;
  const top = yOf(Math.max(open, close));
  const bottom = yOf(Math.min(open, close));
  const colour = up ? '#51cf66' : '#ff6b6b';
  const mid = x + width / 2;
  return (
    <g>
      <line x1={mid} x2={mid} y1={y} y2={y + height} stroke={colour} />
      <rect x={x + width * 0.15} width={width * 0.7} y={top} height={Math.max(1, bottom - top)} fill={colour} />
    </g>
  );
};

export const CandleChart = memo(function CandleChart({
  candles,
  interval,
  onIntervalChange,
}: {
  candles: Candle[];
  interval: CandleInterval;
  onIntervalChange: (interval: CandleInterval) => void;
}) {
  const data = useMemo<Point[]>(
    () =>
      candles.map((c) => ({
        t: c.t,
        range: [Number(c.low), Number(c.high)],
        open: Number(c.open),
        close: Number(c.close),
        high: Number(c.high),
        low: Number(c.low),
        volume: Number(c.baseVolume),
        label: new Date(c.t * 1000).toISOString().slice(5, 16).replace('T', ' '),
      })),
    [candles],
  );
  return (
    <section className="candles" aria-label="Price chart" data-testid="candle-chart">
      <div className="candles-head">
        <h3>Chart</h3>
        <label>
          Interval{' '}
          <select value={interval} onChange={(e) => onIntervalChange(e.target.value as CandleInterval)}>
            {CANDLE_INTERVALS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
      </div>
      {data.length === 0 ? (
        <p className="muted">No candles for this interval yet.</p>
      ) : (
        <div className="candles-body" role="img" aria-label={`Candlestick chart, ${data.length} ${interval} candles`}>
          <ResponsiveContainer width="100%" height={200}>
            <ComposedChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
              <XAxis dataKey="label" hide />
              <YAxis
                yAxisId="price"
                domain={['dataMin', 'dataMax']}
                orientation="right"
                width={70}
                tick={{ fontSize: 11 }}
              />
              <Tooltip
                formatter={(_v, _n, item) => {
                  const p = (item as { payload?: Point }).payload;
                  return p ? [`O ${p.open} H ${p.high} L ${p.low} C ${p.close}`, 'Price'] : ['', ''];
                }}
              />
              <Bar yAxisId="price" dataKey="range" shape={<CandleShape />} isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
          <ResponsiveContainer width="100%" height={60}>
            <ComposedChart data={data} margin={{ top: 0, right: 8, bottom: 0, left: 8 }}>
              <XAxis dataKey="label" tick={{ fontSize: 10 }} minTickGap={40} />
              <YAxis orientation="right" width={70} tick={{ fontSize: 10 }} />
              <Bar dataKey="volume" fill="#748ffc" isAnimationActive={false} name="Volume" />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
});
