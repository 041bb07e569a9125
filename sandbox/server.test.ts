import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from './server';
import { bundledEntry } from './testing/bundledEntry';
import { api, type control, controlAnswer, mainCreds } from './testing/harness';

/** The sandbox's command line as one JavaScript file: 0.3 s less CPU per start than under tsx. */
const cli = () => bundledEntry(path.resolve(import.meta.dirname, 'cli.ts'));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('persistence', () => {
  it('keeps state, the seeded key and id sequences across a restart of the same data directory', async () => {
    const dir = path.join(tmp, 'data');
    const first = await startSandbox({ dataDir: dir, clock: 'manual', market: 'off' });
    const t1 = await api<{ tx_id: number }>(first, mainCreds(first), 'POST', '/wallet/transfers', {
      currency: 'USDT',
      from: 'spot',
      to: 'options',
      amount: '123.45',
    });
    expect(t1.status).toBe(200);
    const balance = async (s: typeof first) =>
      (await api<{ available: string }[]>(s, mainCreds(s), 'GET', '/spot/accounts?currency=USDT')).body[0]?.available;
    const before = await balance(first);
    await first.close();
    expect(fs.existsSync(path.join(dir, 'sandbox.sqlite'))).toBe(true);

    const second = await startSandbox({ dataDir: dir, clock: 'manual', market: 'off' });
    try {
      expect([second.userId, second.key, second.secret]).toEqual([first.userId, first.key, first.secret]);
      expect(await balance(second)).toBe(before);
      const t2 = await api<{ tx_id: number }>(second, mainCreds(second), 'POST', '/wallet/transfers', {
        currency: 'USDT',
        from: 'options',
        to: 'spot',
        amount: '0.45',
      });
      expect(t2.body.tx_id).toBe(t1.body.tx_id + 1);
      expect((await api<unknown[]>(second, mainCreds(second), 'GET', '/sub_accounts')).body.length).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('makes keys and addresses deterministic under --seed', async () => {
    const a = await startSandbox({ memory: true, seed: 77, clock: 'manual', market: 'off' });
    const b = await startSandbox({ memory: true, seed: 77, clock: 'manual', market: 'off' });
    try {
      expect(a.key).toBe(b.key);
      const addr = async (s: typeof a) =>
        (await api<{ address: string }>(s, mainCreds(s), 'GET', '/wallet/deposit_address?currency=ETH')).body.address;
      expect(await addr(a)).toBe(await addr(b));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('command line', () => {
  it('prints exactly one ready line on stdout, serves the control plane, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [await cli(), '--memory', '--port', '0', '--seed', '9', '--market', 'off'], {
      cwd: path.resolve(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ready line')), 20_000);
      child.stdout.on('data', () => {
        if (stdout.includes('\n')) {
          clearTimeout(timer);
          resolve(stdout.split('\n')[0]!);
        }
      });
    });
    const ready = JSON.parse(line) as Record<string, unknown>;
    expect(ready).toMatchObject({
      event: 'ready',
      base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v4$/),
      control_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/),
      control_token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      user_id: 10000001,
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const handle = {
      controlUrl: ready.control_url as string,
      controlToken: ready.control_token as string,
    } as Parameters<typeof control>[0];
    const health = await controlAnswer<{ status: string }>(handle, 'GET', '/health');
    expect(health.body.status).toBe('ok');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('with --data, keeps the directory 0700 and its files 0600 (the standalone sandbox too)', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
    const dir = path.join(parent, 'sandbox');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const child = spawn(
      process.execPath,
      [await cli(), '--data', dir, '--port', '0', '--seed', '9', '--market', 'off'],
      { cwd: path.resolve(__dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ready line')), 20_000);
        child.stdout.on('data', (c: Buffer) => {
          if (c.toString().includes('\n')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const mode = (file: string) => fs.statSync(file).mode & 0o777;
      expect(mode(dir)).toBe(0o700);
      const files = fs.readdirSync(dir);
      expect(files).toContain('sandbox.sqlite');
      for (const f of files) expect(mode(path.join(dir, f)), f).toBe(0o600);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('rejects bad options with a usage message', async () => {
    const child = spawn(process.execPath, [await cli(), '--clock', 'sometimes'], {
      cwd: path.resolve(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain('usage: sandbox');
  });
});
