/**
 * A parallel load generator for the benchmarks that must hold their targets on a loaded machine
 * (issue 26: History's scroll and the 50,004-row export never block the renderer more than 50 ms,
 * the firm-wide view appears in < 1 s at load 3): child processes that keep one core each busy
 * while the measurement runs, then stop. BENCH_LOAD sets how many (default 1: the other core of a
 * 2-core machine); 0 runs without.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';

export interface Load {
  /** Busy processes running. */
  readonly processes: number;
  /** The 1-minute load average now, as the OS reports it. */
  average(): number;
  stop(): Promise<void>;
}

/** Starts `processes` busy loops (default BENCH_LOAD, else 1); each spins until stopped. */
export const startLoad = (processes = Number(process.env.BENCH_LOAD ?? 1)): Load => {
  const children: ChildProcess[] = [];
  for (let i = 0; i < processes; i++) {
    // A pure CPU loop, no allocation: it takes a core, not memory.
    children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  return {
    processes,
    average: () => loadavg()[0] ?? 0,
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
};

/** One line for a benchmark's output: what load it ran under. */
export const describeLoad = (load: Load): string =>
  `${load.processes} busy process${load.processes === 1 ? '' : 'es'} beside it, load average ${load.average().toFixed(1)} on ${cpus().length} cores`;
