import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startSandbox } from '../server';

const s = await startSandbox({ memory: true, clock: 'manual', market: 'off', seed: 1 });
s.limiter.enforce = false;
let txNs = 0n; let txN = 0;
const origTx = s.ctx.tx;
(s.ctx as { tx: typeof origTx }).tx = <T,>(fn: () => T): T => { const t = process.hrtime.bigint(); try { return origTx(fn); } finally { txNs += process.hrtime.bigint() - t; txN++; } };
fs.writeFileSync(
  '/tmp/prof-ready.json',
  JSON.stringify({ base_url: s.baseUrl, control_url: s.controlUrl, key: s.key, secret: s.secret }),
);
const session = new Session();
session.connect();
if (process.argv[3] === 'prof') {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
} else {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpu0 = process.cpuUsage();
const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/testing/load.tmp.mts', process.argv[2] ?? 'post'], {
  stdio: 'inherit',
});
await new Promise((r) => child.on('exit', r));
console.log('tx calls', txN, 'avg us', txN ? Number(txNs / BigInt(txN)) / 1000 : 0);
const cpu = process.cpuUsage(cpu0);
console.log('server cpu ms', (cpu.user + cpu.system) / 1000, 'user', cpu.user / 1000, 'sys', cpu.system / 1000);
const { profile } = await session.post('Profiler.stop');
fs.writeFileSync('/tmp/sbx.cpuprofile', JSON.stringify(profile));
await s.close();
process.exit(0);
