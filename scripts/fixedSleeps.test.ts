import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledEntry } from '../sandbox/testing/bundledEntry';
import { fixedSleepsIn } from './fixedSleeps';

const lines = (source: string) => fixedSleepsIn('x.test.ts', source).map((s) => s.line);

describe('the no-fixed-sleeps check', () => {
  it('finds a fixed sleep however it is written', () => {
    expect(
      lines(`
it('waits', async () => {
  await new Promise((r) => setTimeout(r, 500));
  await new Promise((resolve) => setTimeout(() => resolve(undefined), 300));
  await page.waitForTimeout(1_000);
  await setTimeout(200);
});
`),
    ).toEqual([3, 4, 5, 6]);
  });

  it('finds the calls of a sleep helper, named anything, not its definition', () => {
    expect(
      lines(`
const pauseFor = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function nap(ms: number) { await new Promise((r) => setTimeout(r, ms)); }
it('waits', async () => {
  await pauseFor(250);
  await nap(20);
  await sleep(5);
});
`),
    ).toEqual([5, 6, 7]);
  });

  it('accepts a short poll of a condition, a time limit on something else, and a sleep that says why', () => {
    expect(
      lines(`
const waitFor = async (ready: () => boolean, everyMs = 10) => {
  while (!ready()) await new Promise((r) => setTimeout(r, everyMs));
  for (let i = 0; i < 40 && !ready(); i++) await new Promise((r) => setTimeout(r, 25));
};
const answer = new Promise((resolve, reject) => setTimeout(() => reject(new Error('no answer')), 20_000));
// fixed-sleep-ok: the fake server answers after 200 ms, as a slow platform does
await new Promise((r) => setTimeout(r, 200));
`),
    ).toEqual([]);
  });

  it('does not take a slow poll, or a computed wait in a loop, for a poll', () => {
    expect(
      lines(`
for (;;) {
  if (done()) break;
  await new Promise((r) => setTimeout(r, 150));
}
for (let restart = 0; restart < 3; restart++) await sleep(700 + restart * 300);
// fixed-sleep-ok:
await sleep(300);
`),
    ).toEqual([4, 6, 8]);
  });

  it('fails `npm run lint` on a sleep planted in a test, naming the file and line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'td-sleeps-'));
    try {
      mkdirSync(join(root, 'electron'));
      writeFileSync(
        join(root, 'electron', 'planted.test.ts'),
        "it('x', async () => {\n  await new Promise((r) => setTimeout(r, 500));\n});\n",
      );
      // Not test code: never looked at.
      writeFileSync(join(root, 'electron', 'app.ts'), 'await new Promise((r) => setTimeout(r, 500));\n');
      // The command `npm run lint:sleeps` runs, bundled into plain JavaScript (tsx cost 0.15 s more CPU).
      const script = await bundledEntry(resolve(import.meta.dirname, 'fixedSleeps.ts'));
      const run = spawnSync(process.execPath, [script, '--root', root, 'electron'], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('1 fixed sleep in tests:');
      expect(run.stderr).toContain('electron/planted.test.ts:2  waits 500 ms');
      expect(run.stderr).toContain('// fixed-sleep-ok: <reason>');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
