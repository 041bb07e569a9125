import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two kinds of tests: Node-side code (Electron main, the core, the shell, sandbox, shared, scripts) and the renderer in
// happy-dom. End-to-end tests are Playwright's (e2e/), not Vitest's.
//
// Start-up, not the tests, was most of the time: with isolation every file started its own worker and
// imported its modules again (zod, the contract, the sandbox, React and the UI kit). So the files of
// a worker share one module graph (`isolate: false`), and what a file may leave behind is put back
// between files: the renderer's set-up file resets the app's stores, storage and timers
// (renderer/src/lib/testing/setup.ts); the Node tests close what they open (sandboxes, cores,
// servers, databases) in their own hooks. A file that replaces a module with `vi.mock` cannot share
// modules — its mock would leak into the next files, or come too late for a module already loaded —
// so it runs, with isolation, in a project of its own (found by reading the files, below).
//
// Three workers on the machine's two cores (Vitest's default is one fewer): many files wait on
// loopback I/O, child processes or the sandbox rather than on the CPU, and a third worker runs
// another file meanwhile. Measured on a quiet 2-core machine, cold (no transform cache), run after
// run: 3 workers 49.2 and 51.1 s, 4 workers 46.7 and 45.3 s (about 4 s more CPU: one more worker
// imports the modules of each project). Three keeps the CPU-bound files' own timing margins on a
// slower CI machine, and meets the 60 s target with room. Spreading the waiting files among the
// others (a sequencer that kept at most two of them waiting at once) measured the same as starting
// them first, so they simply start first.

const NODE_TESTS = ['electron', 'core', 'shell', 'sandbox', 'shared', 'scripts', 'bench'];
const RENDERER_TESTS = ['renderer'];
const TEST_FILE = /\.test\.tsx?$/;
const REPLACES_A_MODULE = /\bvi\.(do)?[mM]ock\(/;

/** The test files under `roots` that replace a module with vi.mock / vi.doMock. */
const filesReplacingModules = (roots: readonly string[]): string[] =>
  roots.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => TEST_FILE.test(file) && !file.includes('node_modules'))
      .map((file) => join(root, file))
      .filter((file) => REPLACES_A_MODULE.test(readFileSync(file, 'utf8'))),
  );

/**
 * The longest files, in this order (measured cold on a quiet 2-core machine, 2–12 s each): the node
 * ones mostly wait — on child processes, a sandbox's pipelines and fault delays, a PostgreSQL server,
 * the platform's rate windows — so they start first and overlap the rest; the renderer ones compute,
 * and start first among the renderer's files so that none of them ends the run. Vitest orders by the
 * durations of the last run on this machine (node_modules/.vite/vitest), which a fresh clone does not
 * have: it then orders by file size, and the fault soak (1.4 KB, the longest) started among the last.
 */
const LONG_FILES = [
  'core/movements/fault.test.ts',
  'core/teamDesk/outage.integration.test.ts',
  'core/batches/bulk.integration.test.ts',
  'sandbox/ws/server.test.ts',
  'core/api/platform.integration.test.ts',
  'core/host/remoteCore.test.ts',
  'core/movements/clockSteps.integration.test.ts',
  'core/operators/controls.property.test.ts',
  'sandbox/store/durability.test.ts',
  'sandbox/server.test.ts',
  'renderer/src/frame/numbers.test.tsx',
  'renderer/src/screens/withdrawals/WithdrawForm.test.tsx',
  'renderer/src/screens/trade/ticket/OrderTicket.test.tsx',
  'renderer/src/screens/transfers/TransferForm.test.tsx',
  'renderer/src/screens/subAccounts/keys/KeyFormDialog.test.tsx',
];
for (const file of LONG_FILES) {
  if (!existsSync(file)) throw new Error(`vitest.config.ts: LONG_FILES names ${file}, which does not exist`);
}

/**
 * Vitest's order (per project by name; within one, failed and slower files first), with the isolated
 * projects first: they are few files (the electron glue's, which replace the `electron` module), and
 * as the last projects by name they ran alone at the end of the run while the other workers had
 * nothing left to do. Within a project, LONG_FILES first, with or without a record of earlier runs.
 * Each project's files stay together: a worker is reused for the next file only if that file is of
 * the same project (a new one imports the modules and builds happy-dom's window again).
 */
class IsolatedFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const isolatedLast = (file: TestSpecification) => (file.project.config.isolate ? 0 : 1);
    const longFirst = (file: TestSpecification) => {
      const index = LONG_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Stable: what none of these tells apart keeps Vitest's order.
    return sorted.sort(
      (a, b) =>
        isolatedLast(a) - isolatedLast(b) ||
        projects.indexOf(a.project.name) - projects.indexOf(b.project.name) ||
        longFirst(a) - longFirst(b),
    );
  }
}

const nodeMocking = filesReplacingModules(NODE_TESTS);
const rendererMocking = filesReplacingModules(RENDERER_TESTS);

const nodeProject = {
  environment: 'node',
  // Full-size soak and fault runs: `npm run test:soak` (vitest.soak.config.ts).
  exclude: ['**/node_modules/**', '**/*.soak.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
};

// The window is already one per worker. Vitest's summary line says otherwise ("environment 44 s"
// for the renderer's 76 files): a worker builds happy-dom's window once, when it starts, and every
// file it then runs reports that same set-up time again (Vitest 4's runBaseTests copies it into each
// file's durations). Measured with a reporter printing each file's `diagnostic()`: every file of a
// worker shows the same environmentSetupDuration and no prepare time after the first. The time
// really spent is that once per worker (0.5–1.5 s), and once per isolated file.
const rendererProject = {
  environment: 'happy-dom',
  setupFiles: ['renderer/src/lib/testing/setup.ts'],
  testTimeout: 15_000,
};

export default defineConfig({
  test: {
    // Each file's transform (TypeScript, JSX, vi.mock hoisting) is kept on disk between runs, keyed
    // by its content, the config and Vitest's version (node_modules/.experimental-vitest-cache;
    // `npx vitest --clearCache` empties it): a run after the first transforms only what changed.
    // Measured on 4 core files on the loaded machine, interleaved: 8.3–8.9 s CPU with it, 10.6–11.2 s without.
    experimental: { fsModuleCache: true },
    // Temporary folders (data directories, journals, PostgreSQL clusters) in memory where the machine
    // allows: each journal commit's fsync otherwise held the test's thread (scripts/testTmpdir.ts).
    globalSetup: ['scripts/testTmpdir.ts'],
    maxWorkers: 3,
    sequence: { sequencer: IsolatedFirst },
    projects: [
      {
        test: {
          ...nodeProject,
          name: 'node',
          include: NODE_TESTS.map((root) => `${root}/**/*.test.ts`),
          exclude: [...nodeProject.exclude, ...nodeMocking],
          isolate: false,
        },
      },
      {
        test: { ...nodeProject, name: 'node:isolated', include: nodeMocking },
      },
      {
        plugins: [react()],
        test: {
          ...rendererProject,
          name: 'renderer',
          include: RENDERER_TESTS.flatMap((root) => [`${root}/**/*.test.ts`, `${root}/**/*.test.tsx`]),
          exclude: ['**/node_modules/**', ...rendererMocking],
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: { ...rendererProject, name: 'renderer:isolated', include: rendererMocking },
      },
    ],
  },
});
