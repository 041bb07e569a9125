/**
 * One start of bench:startup, in a process of its own. The benchmark transpiles this file alone
 * (no imports but Node's own modules) and runs it in plain Node, as `npm start` runs the built shell
 * (out/main/shellCli.js): no TypeScript loader in the timed process — tsx's module hooks cost the
 * shell's process about a third of a second of CPU that a person's start does not pay.
 *
 *   node <transpiled>.mjs <data dir> parallel|serial <out/main/shell.js URL>   (BENCH_STARTUP_ADMIN: the operator, JSON)
 *
 * Prints the start's figures as one JSON line (a `Start`).
 */
import type { openShell as OpenShell } from '../shell/shell';

/**
 * Installed in every document before it loads: notes when the document started loading, its first
 * paint, when the frame first shows, and when Balances first shows the total and a spot balance, as
 * wall-clock ms of the frame that paints it.
 */
const PROBE = `(() => {
  if (window !== window.top) return;
  const marks = {};
  // Kept until the document has its root element (an init script may run before it exists).
  const pending = { page: performance.timeOrigin };
  const mark = (name, at) => {
    pending[name] = at;
    if (!document.documentElement) return;
    for (const [key, value] of Object.entries(pending)) document.documentElement.setAttribute('data-bench-' + key, String(value));
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-paint') mark('paint', performance.timeOrigin + entry.startTime);
    }
  }).observe({ type: 'paint', buffered: true });
  const note = (name) => {
    if (marks[name]) return;
    marks[name] = -1;
    // The first frame that contains it: its rAF, then the task after the frame was produced.
    requestAnimationFrame(() => setTimeout(() => {
      marks[name] = performance.timeOrigin + performance.now();
      mark(name, marks[name]);
    }, 0));
  };
  const check = () => {
    if (!document.documentElement.hasAttribute('data-bench-page')) mark('page', pending.page);
    if (document.querySelector('[data-testid="app-frame"]')) note('frame');
    if (document.querySelector('[data-testid="total-balance"]') &&
        document.querySelector('[data-testid="spot-balances"] tbody tr')) note('balances');
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

/** The steps of a start, in the order they are printed; each is ms from the shell process's start. */
export const STEPS = [
  'shell code loaded',
  'sandbox ready',
  'core ready',
  'browser ready',
  'page started',
  'first paint',
  'frame painted',
  'Balances painted',
] as const;
export type Step = (typeof STEPS)[number];

export interface Start {
  readonly mode: 'parallel' | 'serial';
  /** Each step's ms from the shell process's start (performance.timeOrigin). */
  readonly at: Partial<Record<Step, number>>;
}

/** One start, in this process (a child of the benchmark): prints its figures as one JSON line. */
const child = async (dataDir: string, serial: boolean, shellUrl: string): Promise<void> => {
  const origin = performance.timeOrigin;
  // The built shell, as `npm start` runs it (out/main/shell.js: plain JavaScript, no TypeScript loader).
  const { openShell } = (await import(shellUrl)) as { openShell: typeof OpenShell };
  const admin = JSON.parse(process.env.BENCH_STARTUP_ADMIN ?? '{}') as { name: string; passphrase: string };
  const at: Partial<Record<Step, number>> = { 'shell code loaded': Math.round(performance.now()) };
  const shell = await openShell({
    dataDir,
    headless: true,
    log: (line) => {
      const step = (['sandbox ready', 'core ready', 'browser ready'] as const).find((s) => line.startsWith(s));
      if (step) at[step] = Math.round(performance.now());
    },
    viewport: { width: 1440, height: 900 },
    serialStart: serial,
    core: { keyStore: 'memory', bootstrapOperator: admin, watchIntervalMs: 0 },
    beforeBridgeScript: async (context) => {
      await context.addInitScript({ content: PROBE });
    },
  });
  try {
    const wallClock = async (name: string) =>
      Number(
        await (
          await shell.page.waitForSelector(`html[data-bench-${name}]`, { state: 'attached', timeout: 60_000 })
        ).getAttribute(`data-bench-${name}`),
      ) - origin;
    at['Balances painted'] = Math.round(await wallClock('balances'));
    at['frame painted'] = Math.round(await wallClock('frame'));
    at['page started'] = Math.round(await wallClock('page'));
    at['first paint'] = Math.round(await wallClock('paint'));
    console.log(JSON.stringify({ mode: serial ? 'serial' : 'parallel', at } satisfies Start));
  } finally {
    await shell.close();
  }
};

const [, , dataDir, mode, shellUrl] = process.argv;
if (dataDir && shellUrl) {
  child(dataDir, mode === 'serial', shellUrl).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
