/**
 * Candles with volume, drawn by lightweight-charts (canvas; a few thousand candles redraw without
 * React). Theme-aware: colours come from the stylesheet's variables (background, text, grid, the
 * up/down colours the person chose) and follow a theme change; the crosshair's axis labels and the
 * OHLC line above the chart use the theme's raised background and text, so they read in both themes.
 * Prices reach the chart as numbers: this is drawing only, no arithmetic on amounts happens here.
 */
import {
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { createContext, memo, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { CANDLE_INTERVALS, type Candle, type CandleInterval, type Pair } from '../../../../../shared/contract/trade';
import { type DisplayTimeZone, formatBase, formatPrice, formatTime, isDecimalString } from '../../../lib/format';
import { usePrefs } from '../../../lib/prefs';

/**
 * What draws the chart: lightweight-charts' createChart. A test without a canvas (happy-dom has none)
 * provides a stand-in that keeps the options it is given (frame/numbers.test.tsx checks the axes'
 * formatters that way).
 */
export const ChartFactory = createContext<typeof createChart>(createChart);

/** The stylesheet's colours for the current theme (read after the theme is set on <html>). */
const themeColours = () => {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--bg-raised', '#151a21'),
    text: v('--text', '#e3e8ef'),
    muted: v('--text-muted', '#a3aebd'),
    grid: v('--border', '#262e39'),
    border: v('--border-strong', '#36404d'),
    up: v('--up', '#3fbf7f'),
    down: v('--down', '#f2685f'),
    label: v('--bg-selected', '#1f2a38'),
  };
};

interface Legend {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/**
 * The axes' words: prices at the pair's tick and times in the person's display zone, written by the
 * app's formatter (lightweight-charts would write "64800.00" and UTC times of its own).
 */
const axisFormat = (pair: Pair, zone: DisplayTimeZone) => ({
  localization: {
    priceFormatter: (price: number) => formatPrice(price.toFixed(pair.precision), pair),
    timeFormatter: (time: number) => formatTime(time * 1000, zone),
  },
  timeScale: {
    // Minutes for intraday marks, the date for day marks: both from the display-zone text.
    tickMarkFormatter: (time: number, markType: number) => {
      const text = formatTime(time * 1000, zone);
      return markType < 3 ? text.slice(0, 10) : text.slice(11, 16);
    },
  },
});

/** A legend value: the platform's text written as the pair writes it, or as it came. */
const legendPrice = (value: string, pair: Pair) => (isDecimalString(value) ? formatPrice(value, pair) : value);

export const CandleChart = memo(function CandleChart({
  pair,
  candles,
  interval,
  onIntervalChange,
}: {
  pair: Pair;
  candles: Candle[];
  interval: CandleInterval;
  onIntervalChange: (interval: CandleInterval) => void;
}) {
  const theme = usePrefs((s) => s.theme);
  const upColour = usePrefs((s) => s.upColour);
  const timeZone = usePrefs((s) => s.timeZone);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; price: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> }>(null);
  const drawChart = useContext(ChartFactory);
  const [legend, setLegend] = useState<Legend | undefined>();
  const byTime = useMemo(() => new Map(candles.map((c) => [c.t, c])), [candles]);
  const byTimeRef = useRef(byTime);
  byTimeRef.current = byTime;

  // One chart for the component's life.
  useEffect(() => {
    const container = box.current;
    if (container === null) return undefined;
    const api = drawChart(container, { autoSize: true, crosshair: { mode: CrosshairMode.Normal } });
    const price = api.addSeries(CandlestickSeries, { priceLineVisible: true });
    // The volume has no label on the price axis: it would cover the lowest price label.
    const volume = api.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    api.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    price.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
    api.subscribeCrosshairMove((param) => {
      const candle = typeof param.time === 'number' ? byTimeRef.current.get(param.time) : undefined;
      setLegend(
        candle
          ? {
              time: candle.t,
              open: candle.open,
              high: candle.high,
              low: candle.low,
              close: candle.close,
              volume: candle.baseVolume,
            }
          : undefined,
      );
    });
    chart.current = { api, price, volume };
    return () => {
      chart.current = null;
      api.remove();
    };
  }, [drawChart]);

  // Axis labels follow the pair and the display zone.
  useEffect(() => {
    const c = chart.current;
    if (c === null) return;
    const format = axisFormat(pair, timeZone);
    c.api.applyOptions({
      localization: format.localization,
      timeScale: {
        tickMarkFormatter: format.timeScale.tickMarkFormatter,
        // Keep the first and last labels inside the chart (they were cut at both ends).
        fixLeftEdge: true,
        fixRightEdge: true,
      },
    });
    c.price.applyOptions({ priceFormat: { type: 'price', precision: pair.precision, minMove: 10 ** -pair.precision } });
  }, [pair, timeZone]);

  // Colours follow the theme and the up/down choice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: theme and upColour change the CSS variables read here.
  useEffect(() => {
    const c = chart.current;
    if (c === null) return;
    const t = themeColours();
    c.api.applyOptions({
      layout: { background: { type: ColorType.Solid, color: t.background }, textColor: t.muted, fontSize: 11 },
      grid: { vertLines: { color: t.grid }, horzLines: { color: t.grid } },
      rightPriceScale: { borderColor: t.border },
      timeScale: { borderColor: t.border, timeVisible: true, secondsVisible: false },
      crosshair: {
        vertLine: { color: t.muted, labelBackgroundColor: t.label },
        horzLine: { color: t.muted, labelBackgroundColor: t.label },
      },
    });
    c.price.applyOptions({
      upColor: t.up,
      downColor: t.down,
      wickUpColor: t.up,
      wickDownColor: t.down,
      borderVisible: false,
    });
  }, [theme, upColour]);

  useEffect(() => {
    const c = chart.current;
    if (c === null) return;
    const t = themeColours();
    c.price.setData(
      candles.map((k) => ({
        time: k.t as UTCTimestamp,
        open: Number(k.open),
        high: Number(k.high),
        low: Number(k.low),
        close: Number(k.close),
      })),
    );
    c.volume.setData(
      candles.map((k) => ({
        time: k.t as UTCTimestamp,
        value: Number(k.baseVolume),
        color: Number(k.close) >= Number(k.open) ? `${t.up}80` : `${t.down}80`,
      })),
    );
  }, [candles]);

  const last = candles.at(-1);
  const shown = legend ?? (last ? { ...last, time: last.t, volume: last.baseVolume } : undefined);
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
      <div className="candles-legend" data-testid="candle-legend" aria-live="off">
        {shown ? (
          <>
            <span>{formatTime(shown.time * 1000, timeZone)}</span> <span>O {legendPrice(shown.open, pair)}</span>{' '}
            <span>H {legendPrice(shown.high, pair)}</span> <span>L {legendPrice(shown.low, pair)}</span>{' '}
            <span>C {legendPrice(shown.close, pair)}</span>{' '}
            <span>
              V {isDecimalString(shown.volume) ? formatBase(shown.volume, pair, { unit: true }) : shown.volume}
            </span>
          </>
        ) : (
          <span className="muted">No candles for this interval yet.</span>
        )}
      </div>
      <p className="sr-only">{`Candlestick chart, ${candles.length} ${interval} candles.`}</p>
      <div ref={box} className="candles-body" />
    </section>
  );
});
