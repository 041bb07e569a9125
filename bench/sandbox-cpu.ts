/**
 * The sandbox's own CPU time per signed `POST /wallet/transfers`, the steadier figure beside
 * `bench:sandbox`'s rates on a shared machine: the client sends fixed waves of concurrent transfers
 * (16 by default, each wave waiting for the last), so every run does the same work in similar
 * group-commit turns whatever else the machine runs, and the figure is the sandbox process's CPU
 * (/proc) over a fixed number of transfers after a warm-up.
 *
 *   npm run bench:sandbox-cpu -- memory|disk [waves] [wave size]
 *   SANDBOX_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/sandbox-cpu.ts disk   # profile it
 *
 * Prints one line: mode, transfers, rate, server CPU µs per transfer (user + system, and user), the
 * 1-minute load average. Compare two versions by alternating runs (A, B, A, B).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { bodyHash, sign } from '../sandbox/http/signature';
import { firstLine, ROOT, type SandboxReady } from './processes';

const mode = process.argv[2] === 'disk' ? 'disk' : 'memory';
const WAVES = Number(process.argv[3] ?? 800);
const WAVE_SIZE = Number(process.argv[4] ?? 16);
/** Warm-up waves before anything is measured (the JIT, SQLite's page cache). */
const WARMUP_WAVES = Math.ceil(WAVES * 0.3);
const TRANSFER_PATH = '/api/v4/wallet/transfers';
const BODY = JSON.stringify({ currency: 'USDT', from: 'spot', to: 'futures', amount: '0.0001', settle: 'usdt' });

/** User and system CPU time of a process so far, in microseconds (Linux /proc, USER_HZ 100). */
function cpuMicros(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cpu-'));
  const nodeArgs = (process.env.SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const storage = mode === 'disk' ? ['--data', dataDir] : ['--memory'];
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--import',
      'tsx',
      'sandbox/cli.ts',
      ...storage,
      '--clock',
      'manual',
      '--seed',
      '1',
      '--market',
      'off',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const ready = JSON.parse(await firstLine(child)) as SandboxReady;
    await fetch(`${ready.control_url}/rate_limits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Token': ready.control_token },
      body: JSON.stringify({ enforce: false }),
    });
    const port = Number(new URL(ready.base_url).port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: WAVE_SIZE });
    const hash = bodyHash(BODY);
    let failed = 0;
    const transfer = () =>
      new Promise<void>((resolve) => {
        const ts = String(Math.floor(Date.now() / 1000));
        const headers = {
          KEY: ready.key,
          Timestamp: ts,
          SIGN: sign(ready.secret, 'POST', TRANSFER_PATH, '', hash, ts),
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(BODY)),
        };
        const req = http.request(
          { host: '127.0.0.1', port, agent, method: 'POST', path: TRANSFER_PATH, headers },
          (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode !== 200) failed += 1;
              resolve();
            });
          },
        );
        req.on('error', () => {
          failed += 1;
          resolve();
        });
        req.end(BODY);
      });
    const waves = async (count: number) => {
      for (let w = 0; w < count; w += 1) await Promise.all(Array.from({ length: WAVE_SIZE }, transfer));
    };
    await waves(WARMUP_WAVES);
    const before = cpuMicros(child.pid!);
    const started = performance.now();
    await waves(WAVES);
    const seconds = (performance.now() - started) / 1000;
    const after = cpuMicros(child.pid!);
    agent.destroy();
    const n = WAVES * WAVE_SIZE;
    const user = (after.user - before.user) / n;
    const total = user + (after.system - before.system) / n;
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `${mode}: ${n} transfers in waves of ${WAVE_SIZE}, ${Math.round(n / seconds)}/s, server CPU ${total.toFixed(1)} µs per transfer (user ${user.toFixed(1)}), ${failed} not 200, load ${load}`,
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // a clean stop: a --cpu-prof profile is written on exit
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
