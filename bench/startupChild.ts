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
import { readdirSync, readFileSync } from 'node:fs';
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
  /**
   * CPU time (user + system, ms) each process of the app had used when Balances was painted, by
   * role: shell, sandbox, core, and Chromium's processes by their type (several of one type summed).
   */
  readonly cpu: Record<string, number>;
}

/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  readonly pid: number;
  readonly parent: number;
  readonly cpuMs: number;
}

/** A process's parent and CPU time from /proc/<pid>/stat; undefined once it is gone. */
const statOf = (pid: number): ProcessStat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { pid, parent: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
};

/** Chromium's role of one of its processes (its --type=, none for the browser process itself). */
const chromiumRole = (pid: number): string => {
  try {
    const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))?.[1];
    return `chromium ${type ?? 'browser'}`;
  } catch {
    return 'chromium (gone)';
  }
};

/** The CPU time of this process and all its descendants, by role (see Start.cpu). */
const cpuByRole = (roles: ReadonlyMap<number, string>): Record<string, number> => {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => statOf(Number(name)) ?? []);
  const children = new Map<number, ProcessStat[]>();
  for (const stat of all) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const cpu: Record<string, number> = {};
  const visit = (stat: ProcessStat, inherited: string | undefined) => {
    const role = roles.get(stat.pid) ?? (inherited === 'chromium' ? chromiumRole(stat.pid) : undefined) ?? 'other';
    cpu[role] = (cpu[role] ?? 0) + stat.cpuMs;
    // Everything below a process of the app is that process's own helpers; below the shell, Chromium's.
    const below = roles.has(stat.pid) && stat.pid === process.pid ? 'chromium' : inherited;
    for (const child of children.get(stat.pid) ?? []) visit(child, below);
  };
  const self = statOf(process.pid);
  if (self) visit(self, undefined);
  return cpu;
};

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
    const cpu = cpuByRole(
      new Map([
        [process.pid, 'shell'],
        ...(shell.sandbox?.pid ? [[shell.sandbox.pid, 'sandbox'] as const] : []),
        ...(shell.core.pid ? [[shell.core.pid, 'core'] as const] : []),
      ]),
    );
    at['frame painted'] = Math.round(await wallClock('frame'));
    at['page started'] = Math.round(await wallClock('page'));
    at['first paint'] = Math.round(await wallClock('paint'));
    console.log(JSON.stringify({ mode: serial ? 'serial' : 'parallel', at, cpu } satisfies Start));
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
