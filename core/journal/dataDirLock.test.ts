/**
 * One process per data directory: a second core, in this process or another, is refused before it
 * opens anything, says who holds the folder, and the lock dies with its holder (no stale lock).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../sandbox/testing/bundledEntry';
import { createCore } from '../core';
import { MemoryKeyStore } from '../keychain/keyStore';
import { startTestCore } from '../testing/core';
import { DataDirBusy, lockDataDir } from './dataDirLock';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-lock-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A separate process that holds the directory's lock until killed. */
const holdInAnotherProcess = async (dir: string): Promise<ChildProcess> => {
  const holder = await bundledEntry(join(ROOT, 'core/testing/holdDataDir.ts'));
  const child = spawn(process.execPath, [holder, dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((done, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && done());
    child.once('exit', (code) => fail(new Error(`holder exited with ${code}`)));
  });
  return child;
};

/** A TypeScript entry (`entry`, from the repository's root) run in a separate process, bundled rather than under tsx. */
const run = async (entry: string, args: string[]) => {
  const bundle = await bundledEntry(join(ROOT, entry));
  return new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => done({ code, stderr }));
  });
};

describe('one process per data directory', () => {
  it('refuses a second lock in the same process, naming the holder, until the first is released', () => {
    const dir = newDir();
    chmodSync(dir, 0o755); // made by an older version, readable by everyone…
    writeFileSync(join(dir, 'core.lock'), '');
    chmodSync(join(dir, 'core.lock'), 0o644); // …and so was its lock file
    const first = lockDataDir(dir, 'electron');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'core.lock')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'core.lock.json')).mode & 0o777).toBe(0o600);
    let refusal: unknown;
    try {
      lockDataDir(dir, 'chromium');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirBusy);
    expect((refusal as DataDirBusy).holder).toMatchObject({ pid: process.pid, shell: 'electron' });
    expect((refusal as Error).message).toContain(`process ${process.pid} (electron)`);
    first.release();
    lockDataDir(dir, 'chromium').release();
  });

  it('refuses while another process holds it, and is free again the moment that process is killed', async () => {
    const dir = newDir();
    const holder = await holdInAnotherProcess(dir);
    expect(() => lockDataDir(dir, 'chromium')).toThrow(`process ${holder.pid} (test holder)`);
    holder.kill('SIGKILL');
    await new Promise((done) => holder.once('exit', done));
    // No stale lock after a crash: the OS dropped it with the process.
    lockDataDir(dir, 'chromium').release();
  });

  it('a second core on the same folder is refused before it opens or changes anything', async () => {
    const first = await startTestCore({ mode: 'off' }, { connect: false });
    try {
      // The folder and the journal are this user's only.
      expect(statSync(first.dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(first.dataDir, 'journal.sqlite')).mode & 0o777).toBe(0o600);
      expect(statSync(join(first.dataDir, 'core.lock')).mode & 0o777).toBe(0o600);
      const before = readdirSync(first.dataDir)
        .map((f) => `${f}:${statSync(join(first.dataDir, f)).mtimeMs}`)
        .sort();
      await expect(
        createCore({
          dataDir: first.dataDir,
          shell: 'chromium',
          trustedOrigins: [],
          emit: () => {},
          keyStore: new MemoryKeyStore(),
          sandbox: { mode: 'off' },
          connect: false,
        }),
      ).rejects.toBeInstanceOf(DataDirBusy);
      const after = readdirSync(first.dataDir)
        .map((f) => `${f}:${statSync(join(first.dataDir, f)).mtimeMs}`)
        .sort();
      expect(after).toEqual(before);
      // The first core still works on its journal.
      expect(first.core.movementService.list()).toEqual([]);
    } finally {
      await first.close();
    }
  });

  it('the fallback shell started a second time says which process has the folder and exits without touching it', async () => {
    const dir = newDir();
    const lock = lockDataDir(dir, 'electron');
    try {
      const screenshot = join(dir, 'shot.png');
      const { code, stderr } = await run('shell/cli.ts', ['--headless', '--screenshot', screenshot, '--data-dir', dir]);
      expect(code).toBe(1);
      expect(stderr).toContain(`already running on this data folder (${dir}): process ${process.pid} (electron)`);
      expect(existsSync(screenshot)).toBe(false);
      expect(existsSync(join(dir, 'journal.sqlite'))).toBe(false);
      expect(existsSync(join(dir, 'chromium-profile'))).toBe(false);
    } finally {
      lock.release();
    }
  });
});
