/**
 * Prints one closing line for the whole test run, "Tests: N passed, N failed, N skipped", from
 * the JSON reports Vitest and Playwright wrote (scripts/test.sh asks both for one), so a reader
 * or CI sees the total without adding up two runners' outputs. Failed tests, and end-to-end tests
 * that passed only on CI's one retry, are listed by name at the very end, where a log cut to its
 * last lines still shows them.
 */
import { existsSync, readFileSync } from 'node:fs';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const read = (file: string): unknown => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);

const vitestCounts = (report: unknown): Counts => {
  const r = report as {
    numPassedTests?: number;
    numFailedTests?: number;
    numPendingTests?: number;
    numTodoTests?: number;
  };
  return {
    passed: r?.numPassedTests ?? 0,
    failed: r?.numFailedTests ?? 0,
    skipped: (r?.numPendingTests ?? 0) + (r?.numTodoTests ?? 0),
  };
};

/** "file › test: first line of the failure" for every Vitest test that failed. */
const vitestFailures = (report: unknown): string[] => {
  const files =
    (
      report as {
        testResults?: {
          name?: string;
          message?: string;
          assertionResults?: { status?: string; fullName?: string; failureMessages?: string[] }[];
        }[];
      }
    )?.testResults ?? [];
  const out: string[] = [];
  for (const file of files) {
    const where = (file.name ?? '').replace(`${process.cwd()}/`, '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      out.push(`${where} › ${a.fullName ?? '?'}: ${(a.failureMessages?.[0] ?? '').split('\n')[0]?.slice(0, 300)}`);
    // A file that failed to load or whose hooks threw has no failed assertion, only a message.
    if (failed.length === 0 && file.message) out.push(`${where}: ${file.message.split('\n')[0]?.slice(0, 300)}`);
  }
  return out;
};

interface PlaywrightSuite {
  readonly title?: string;
  readonly suites?: readonly PlaywrightSuite[];
  readonly specs?: readonly { readonly title: string; readonly tests: readonly { readonly status?: string }[] }[];
}

/** Titles of the end-to-end tests whose outcome is `status` ('flaky': failed, then passed on CI's one retry). */
const playwrightTitles = (report: unknown, status: 'flaky' | 'unexpected'): string[] => {
  const titles: string[] = [];
  const walk = (suite: PlaywrightSuite, path: string[]) => {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      if (spec.tests.some((t) => t.status === status)) titles.push([...here, spec.title].join(' › '));
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of (report as { suites?: PlaywrightSuite[] })?.suites ?? []) walk(suite, []);
  return titles;
};

const playwrightCounts = (report: unknown): Counts => {
  const stats = (report as { stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number } })
    ?.stats;
  return {
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    failed: stats?.unexpected ?? 0,
    skipped: stats?.skipped ?? 0,
  };
};

const [vitestFile = '.test-summary/vitest.json', playwrightFile = '.test-summary/playwright.json'] =
  process.argv.slice(2);
const vitest = read(vitestFile);
const playwright = read(playwrightFile);
const parts = [vitest ? vitestCounts(vitest) : undefined, playwright ? playwrightCounts(playwright) : undefined];
const total = parts.reduce<Counts>(
  (sum, c) =>
    c ? { passed: sum.passed + c.passed, failed: sum.failed + c.failed, skipped: sum.skipped + c.skipped } : sum,
  { passed: 0, failed: 0, skipped: 0 },
);
if (!vitest) console.log('(no Vitest report: its step did not finish)');
if (!playwright) console.log('(no Playwright report: its step did not finish)');
const flaky = playwright ? playwrightTitles(playwright, 'flaky') : [];
// A test that passed only on its retry is counted as passed but named, so it gets fixed, not forgotten.
for (const title of flaky) console.log(`Flaky (failed, then passed on retry): ${title}`);
for (const line of vitest ? vitestFailures(vitest) : []) console.log(`Failed (Vitest): ${line}`);
for (const title of playwright ? playwrightTitles(playwright, 'unexpected') : [])
  console.log(`Failed (Playwright): ${title}`);
console.log(
  `Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped${flaky.length ? ` (${flaky.length} flaky)` : ''}`,
);
