// TEMPORARY (issue 7 engineer, local only; deleted before the report): wires the shell to the test's sandbox
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryKeyStore } from '../electron/core/keychain/keyStore';
import { openShell } from '../electron/shell/shell';
import { test as base } from './fixtures';
export { expect } from './fixtures';
export const test = base.extend({
  shell: async ({ sandbox }, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'treasury-desk-app-'));
    const shell = await openShell({
      dataDir,
      headless: true,
      rendererDir: join(process.env.TREASURY_DESK_E2E_OUT ?? 'out', 'renderer'),
      core: { sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret }, keyStore: new MemoryKeyStore(), log: (l: string) => { if (l.includes("/spot/orders")) console.error('REQ', l); } },
    });
    try { await use(shell); } finally { await shell.close(); await rm(dataDir, { recursive: true, force: true }); }
  },
});
