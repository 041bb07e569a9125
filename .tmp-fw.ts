import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { control, startTestSandbox } from './sandbox/testing/harness';

const sandbox = await startTestSandbox({ clock: 'real' });
await control(sandbox, '/rate_limits', { enforce: false });
const dataDir = fs.mkdtempSync('/tmp/fw2/d');
const plan = {
  dataDir,
  baseUrl: sandbox.baseUrl,
  key: sandbox.key,
  secret: sandbox.secret,
  total: 6,
  addresses: ['T0000FaultTestAddrxxxxxxxxxxxxxxxx', 'T0001FaultTestAddrxxxxxxxxxxxxxxxx'],
  receiverUid: sandbox.userId,
  subs: [1, 2],
  concurrency: 2,
};
const child = spawn(process.execPath, ['--import', 'tsx', 'electron/core/testing/faultWorker.ts'], {
  env: { ...process.env, FAULT_PLAN: JSON.stringify(plan), CLOCK_STEPS: '[]' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const t = setTimeout(() => child.kill('SIGKILL'), 40000);
await new Promise((r) => child.on('exit', r));
clearTimeout(t);
await sandbox.close();
