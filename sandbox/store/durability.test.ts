/**
 * Every acknowledged write survives a kill of the sandbox process: signed transfers are sent with
 * many connections at once to a sandbox on a data directory (WAL, synchronous=NORMAL, one commit per
 * event-loop turn), the process is SIGKILLed while requests are still in flight, and the database is
 * then read back: every transfer that was answered 200 is there (0 lost), each with both of its
 * account-book entries, and the balances equal their account books (nothing half applied). Three
 * rounds on the same directory (each restart recovers the last one's WAL), so a sandbox that answered
 * before committing would be caught in the act at least once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import { afterAll, expect, it } from 'vitest';
import { bundledEntry } from '../testing/bundledEntry';
import { signedHeaders } from '../testing/client';

const CONNECTIONS = 16;
/** Kill once this many transfers of a round were acknowledged (plenty still in flight then). */
const KILL_AFTER = 250;
const ROUNDS = 3;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Ready {
  base_url: string;
  control_url: string;
  control_token: string;
  key: string;
  secret: string;
}

const start = async (dataDir: string): Promise<{ child: ChildProcess; ready: Ready }> => {
  // The sandbox's CLI, bundled once for the three rounds' starts.
  const entry = await bundledEntry(path.resolve(import.meta.dirname, '../cli.ts'));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [entry, '--data', dataDir, '--clock', 'manual', '--market', 'off', '--seed', '4'],
      { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve({ child, ready: JSON.parse(out.slice(0, nl)) as Ready });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
  });
};

/** One round: transfers from many connections until KILL_AFTER are answered, then SIGKILL. */
async function killMidFlight(dataDir: string, firstAmount: number): Promise<{ acknowledged: number[]; next: number }> {
  const { child, ready } = await start(dataDir);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await fetch(`${ready.control_url}/rate_limits`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Token': ready.control_token },
    body: JSON.stringify({ enforce: false }),
  });
  const url = new URL(ready.base_url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const acknowledged: number[] = [];
  let killed = false;
  const transfer = (n: number) =>
    new Promise<void>((resolve) => {
      // Each transfer its own amount, so the account book tells them apart.
      const body = JSON.stringify({
        currency: 'USDT',
        from: 'spot',
        to: 'futures',
        amount: new Decimal(n).div(1e8).toFixed(),
        settle: 'usdt',
      });
      const signed = signedHeaders(ready, 'POST', '/api/v4/wallet/transfers', '', body);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          agent,
          method: 'POST',
          path: '/api/v4/wallet/transfers',
          headers: { ...signed, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => {
            if (res.statusCode === 200) acknowledged.push((JSON.parse(text) as { tx_id: number }).tx_id);
            if (acknowledged.length >= KILL_AFTER && !killed) {
              killed = true;
              child.kill('SIGKILL');
            }
            resolve();
          });
          res.on('error', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.end(body);
    });
  let next = firstAmount;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!killed && next < firstAmount + 100_000) await transfer(next++);
    }),
  );
  agent.destroy();
  await exited;
  expect(killed).toBe(true);
  return { acknowledged, next };
}

it('a SIGKILL loses no acknowledged transfer and leaves none half applied', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-kill-'));
  dirs.push(dataDir);
  const acknowledged: number[] = [];
  let next = 1;
  for (let round = 0; round < ROUNDS; round += 1) {
    const result = await killMidFlight(dataDir, next);
    acknowledged.push(...result.acknowledged);
    next = result.next;
  }

  // Read back what the killed process left (SQLite recovers the WAL on open).
  const db = new Database(path.join(dataDir, 'sandbox.sqlite'));
  try {
    const stored = new Set(
      (db.prepare("SELECT id FROM transfers WHERE kind = 'own'").all() as { id: number }[]).map((r) => r.id),
    );
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    // Both legs of every stored transfer, and no leg without its transfer.
    const legs = db
      .prepare("SELECT ref, COUNT(*) AS n FROM ledger_entries WHERE type = 'dnw' AND ref <> '' GROUP BY ref")
      .all() as { ref: string; n: number }[];
    const legsOf = new Map(legs.map((l) => [Number(l.ref), l.n]));
    for (const id of stored) expect(legsOf.get(id), `transfer ${id}`).toBe(2);
    // Each balance is what its account book says.
    const balances = db
      .prepare("SELECT account, available, locked FROM balances WHERE currency = 'USDT' AND user_id = 10000001")
      .all() as {
      account: string;
      available: string;
      locked: string;
    }[];
    for (const b of balances.filter((x) => x.account === 'spot' || x.account === 'futures')) {
      const last = db
        .prepare(
          "SELECT balance FROM ledger_entries WHERE currency = 'USDT' AND account = ? AND user_id = 10000001 ORDER BY id DESC LIMIT 1",
        )
        .get(b.account) as { balance: string } | undefined;
      expect(new Decimal(b.available).plus(b.locked).toFixed(), b.account).toBe(last?.balance);
    }
  } finally {
    db.close();
  }
}, 60_000);
