import { defineConfig } from '@playwright/test';
import { findChrome } from './shell/chrome';

/**
 * End-to-end tests. Project `chromium` opens the app through the Chromium fallback shell in the
 * system's Chromium (no browser download); project `electron` runs the Electron smoke spec and
 * skips, saying why, where the Electron binary is unavailable.
 */
const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  globalSetup: './e2e/fixtures/build.ts',
  // Each worker keeps one Chromium and a core process forked ahead; each test gets its own sandbox,
  // data folder, core process and browser context (e2e/fixtures). Two workers on CI: three were
  // tried (the CPU looked half idle) and were not faster on this 2-core machine in an interleaved
  // pair (238 s against 218 s for two; the tests' summed time went from 406 to 677 s), and not
  // green in three runs in a row under load.
  workers: CI ? 2 : 1,
  // Tests, not files, are shared out between the workers: the longest file (trade.spec.ts) no
  // longer runs alone at the end while the other worker idles.
  fullyParallel: true,
  forbidOnly: CI,
  // On CI one retry absorbs a timing hiccup of a shared two-core machine; a test that needed it is
  // reported by name as flaky (scripts/test-summary.ts), and a real failure still fails twice.
  retries: CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 5_000 },
  // The JSON report feeds the one-line total that `npm test` prints (scripts/test-summary.ts).
  reporter: [
    ['list'],
    ['json', { outputFile: '.test-summary/playwright.json' }],
    ...(CI ? [['html', { open: 'never', outputFolder: 'playwright-report' }] as const] : []),
  ],
  use: {
    // Traces are costly: recording one costs a test about a quarter more CPU (security.spec.ts: 43.7
    // against 33.0 s of CPU for its 14 tests), and 'retain-on-failure' records every test to keep a
    // few. CI records a failed test's retry only; local runs opt in (--trace on).
    trace: CI ? 'on-first-retry' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: ['**/electron.spec.ts'],
      use: {
        // Specs use the shell's browser (fixtures), but should one use Playwright's own browser,
        // it is the same system Chromium, never a downloaded one.
        launchOptions: {
          executablePath: findChrome(),
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
        },
      },
    },
    {
      name: 'electron',
      testMatch: ['**/electron.spec.ts'],
    },
  ],
});
