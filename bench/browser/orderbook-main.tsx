/**
 * Benchmark page: mounts the real OrderBook component and feeds it the way the Trade screen does
 * (diffs from main applied with the shared book functions). The Node runner
 * (bench/orderbook-render.ts) calls window.runBench() and reads the measurements.
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { OrderBook } from '../../renderer/src/screens/trade/book/OrderBook';
import type { BookLevel } from '../../shared/contract/trade';
import { applyBookChange, type BookSides, diffBook } from '../../shared/trade/book';
// The app's stylesheet: its colour variables paint the depth bars and flashes as in the app.
import '../../renderer/src/styles/app.css';

interface BenchOptions {
  updatesPerSecond: number;
  levels: number;
  durationMs: number;
}

export interface BenchResult {
  /** requestAnimationFrame intervals (vsync-bound: ≈16.7 ms at 60 Hz when no frame is missed). */
  frames: number[];
  /** Main-thread work per frame (see below). */
  frameWork: number[];
  /** Script + style + layout time of each update, measured synchronously around the commit. */
  updateCosts: number[];
  /** React's render + commit alone, part of updateCosts. */
  reactMs: number[];
  longTasks: number[];
  updates: number;
  levelsChanged: number;
}

// A deterministic pseudo-random generator so runs are comparable.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const PRECISION = 2;
const AMOUNT_PRECISION = 4;

/**
 * A synthetic market shaped like a real one: orders rest at absolute prices on the tick grid (a mid
 * move adds or removes levels at the top instead of renumbering the whole book); each update the
 * mid moves by up to 3 ticks 30 % of the time, 15 % of the levels change amount, 2 % are
 * cancelled, and the book is refilled to `levels` per side with some empty ticks.
 */
const makeMarket = (levels: number) => {
  let mid = 6_500_000; // in cents (ticks of 0.01)
  const asks = new Map<number, string>();
  const bids = new Map<number, string>();
  const amount = () => (random() * 3 + 0.0001).toFixed(AMOUNT_PRECISION);
  const refill = (side: Map<number, string>, dir: 1 | -1) => {
    for (let cents = mid + dir; side.size < levels; cents += dir) {
      if (!side.has(cents) && random() < 0.7) side.set(cents, amount());
    }
    // Keep only the best `levels` (the feed fetches a fixed depth).
    const keep = [...side.keys()].sort((a, b) => dir * (a - b)).slice(0, levels);
    for (const key of side.keys()) if (!keep.includes(key)) side.delete(key);
  };
  const churn = (side: Map<number, string>) => {
    for (const key of [...side.keys()]) {
      const r = random();
      if (r < 0.02) side.delete(key);
      else if (r < 0.17) side.set(key, amount());
    }
  };
  const levelsOf = (side: Map<number, string>, dir: 1 | -1): BookLevel[] =>
    [...side.entries()]
      .sort((a, b) => dir * (a[0] - b[0]))
      // Integer cents avoid float noise in the synthetic prices.
      .map(([cents, a]) => [(cents / 100).toFixed(PRECISION), a]);
  return (): BookSides => {
    if (random() < 0.3) mid += Math.round((random() - 0.5) * 6);
    // Levels the mid moved across were traded away.
    for (const key of [...asks.keys()]) if (key <= mid) asks.delete(key);
    for (const key of [...bids.keys()]) if (key >= mid) bids.delete(key);
    churn(asks);
    churn(bids);
    refill(asks, 1);
    refill(bids, -1);
    return { asks: levelsOf(asks, 1), bids: levelsOf(bids, -1) };
  };
};

let setBookFromOutside: ((updater: (b: BookSides) => BookSides) => void) | undefined;

function Harness() {
  const [book, setBook] = useState<BookSides>({ asks: [], bids: [] });
  const [depth, setDepth] = useState(50);
  const [step, setStep] = useState('0.01');
  useEffect(() => {
    setBookFromOutside = setBook;
  }, []);
  return (
    <OrderBook
      book={book}
      base="BTC"
      quote="USDT"
      precision={PRECISION}
      amountPrecision={AMOUNT_PRECISION}
      depth={depth}
      step={step}
      onDepthChange={setDepth}
      onStepChange={setStep}
      onPickPrice={() => {}}
      status="Live"
    />
  );
}

const root = createRoot(document.getElementById('root')!);
root.render(<Harness />);

declare global {
  interface Window {
    runBench: (options: BenchOptions) => Promise<BenchResult>;
  }
}

window.runBench = async ({ updatesPerSecond, levels, durationMs }) => {
  const next = makeMarket(levels);
  const longTasks: number[] = [];

  const frames: number[] = [];
  const frameWork: number[] = [];
  const updateCosts: number[] = [];
  const reactMs: number[] = [];
  // Main-thread work per frame = script+layout of the updates handled since the previous frame
  // + the frame's own rendering after requestAnimationFrame (measured with a message posted from
  // rAF, which runs once style, layout and paint of that frame are done).
  let workSinceFrame = 0;
  let framePending = false;
  let workInsidePendingFrame = 0;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<{ at: number; script: number }>) => {
    frameWork.push(event.data.script + (performance.now() - event.data.at) - workInsidePendingFrame);
    framePending = false;
    workInsidePendingFrame = 0;
  };
  let levelsChanged = 0;
  let updates = 0;
  let running = true;
  let last = performance.now();
  const onFrame = (now: number) => {
    frames.push(now - last);
    last = now;
    channel.port2.postMessage({ at: performance.now(), script: workSinceFrame });
    framePending = true;
    workInsidePendingFrame = 0;
    workSinceFrame = 0;
    if (running) requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);

  // The market and main's diffing run before the clock starts: in the app both happen in main, so
  // the renderer only receives and applies the changes. Generating them inside the measured tasks
  // would count the harness's own work as the book's.
  const total = Math.ceil(((durationMs + 1000) / 1000) * updatesPerSecond) + updatesPerSecond;
  const changes: BookSides[] = [];
  let previous: BookSides = { asks: [], bids: [] };
  while (changes.length < total) {
    const fresh = next();
    const change = diffBook(previous, fresh);
    previous = fresh;
    if (change !== undefined) changes.push(change);
  }
  let nextChange = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const tick = () => {
    const change = changes[nextChange++ % changes.length]!;
    levelsChanged += change.asks.length + change.bids.length;
    const start = performance.now();
    flushSync(() => setBookFromOutside?.((book) => applyBookChange(book, change)));
    reactMs.push(performance.now() - start);
    // Force style and layout now so their cost is counted in this update.
    void document.body.offsetHeight;
    const cost = performance.now() - start;
    updateCosts.push(cost);
    workSinceFrame += cost;
    // An update that ran between a frame's rAF and its posted message is already inside that
    // frame's measured span; it belongs to the next frame, so take it out of this one.
    if (framePending) workInsidePendingFrame += cost;
    updates++;
  };
  // One second of warm-up (first mount, JIT) is not measured.
  const warmUp = setInterval(tick, 1000 / updatesPerSecond);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(warmUp);
  frames.length = 0;
  frameWork.length = 0;
  updateCosts.length = 0;
  reactMs.length = 0;
  longTasks.length = 0;
  updates = 0;
  levelsChanged = 0;
  last = performance.now();
  // Marks the measured window in a BENCH_TRACE trace.
  performance.mark('bench-measured');
  const interval = setInterval(tick, 1000 / updatesPerSecond);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  clearInterval(interval);
  running = false;
  observer.disconnect();
  // Drop the first frame: it measures from before the first rAF.
  channel.port1.close();
  return { reactMs, frames: frames.slice(1), frameWork, updateCosts, longTasks, updates, levelsChanged };
};

document.body.dataset.ready = 'true';
