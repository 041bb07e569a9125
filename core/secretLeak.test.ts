/**
 * SECRET-LEAK TEST. A full session — connect, connection check, a key typed for another profile,
 * every kind of money movement (including lost answers), history sync, audit export, and a call of
 * every operation of the contract — then the secrets are searched for everywhere the app writes or
 * sends: every IPC answer and event (all the renderer can ever reach), every log line, every
 * journal row, every file in the data directory. The only place allowed to hold them is the keychain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../sandbox/testing/harness';
import { contract } from '../shared/contract';
import { operationNames } from '../shared/ipc/define';
import type { Core } from './core';
import { MemoryKeyStore } from './keychain/keyStore';
import type { SecretView } from './policies/confirmPage';
import { asRenderer, autoShowSecret, startTestCore, type TestCore } from './testing/core';

const sender = asRenderer;
let sandbox: SandboxHandle;
let testCore: TestCore;
let core: Core;
let account: { user_id: number; key: string; secret: string };
const TYPED_SECRET = 'typed-secret-Zq8XkV3pLm2Nw7Rt';
const seen: string[] = [];
const keyStore = new MemoryKeyStore();
/** New secrets the core showed in the shell's own page (the one place outside the keychain they go). */
const shownSecrets: SecretView[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ market: 'on' });
  account = await control(sandbox, '/users', {});
  await control(sandbox, '/balances', {
    user_id: account.user_id,
    account: 'spot',
    currency: 'USDT',
    amount: '100000',
  });
  testCore = await startTestCore(
    { mode: 'external', baseUrl: sandbox.baseUrl, key: account.key, secret: account.secret },
    {
      emit: (name, payload) => seen.push(`event ${name} ${JSON.stringify(payload)}`),
      log: (line) => seen.push(`log ${line}`),
      logError: (operation, error) => seen.push(`error ${operation} ${String(error)} ${(error as Error)?.stack ?? ''}`),
      keyStore,
      showSecret: autoShowSecret(shownSecrets),
      timeoutMs: 2_000,
      watchIntervalMs: 200,
    },
  );
  core = testCore.core;
});

afterAll(async () => {
  await testCore?.close();
  await sandbox?.close();
});

const call = async (operation: string, payload: unknown = {}) => {
  const result = await core.dispatch(operation, payload, sender);
  seen.push(`ipc ${operation} ${JSON.stringify(result)}`);
  return result;
};

it('no secret reaches an IPC payload, a log line, the journal or any file of the app', async () => {
  await call('profiles.status');
  await call('profiles.connectionCheck');
  const added = await call('profiles.add', { kind: 'testnet', name: 'Testnet' });
  if (!added.ok) throw new Error('add failed');
  const id = (added.value as { id: string }).id;
  await call('profiles.setKey', { id, key: 'testnetkey12345678', secret: TYPED_SECRET });
  await call('profiles.list');

  const { movements } = core.ctx;
  const api = core.ctx.platform();
  const subs = await api.subAccounts.list();
  const sub =
    subs[0] ?? (await api.subAccounts.create({ login_name: `leak_${Date.now() % 100000}`, password: 'pw-not-a-key' }));
  await control(sandbox, '/balances', { user_id: sub.user_id, account: 'spot', currency: 'USDT', amount: '100' });
  const address = `TLeakTest${'y'.repeat(25)}`;
  await control(sandbox, '/saved_addresses', { user_id: account.user_id, currency: 'USDT', chain: 'TRX', address });
  await control(sandbox, '/faults', { rules: [{ path: '/api/v4/*', kind: 'drop_after', probability: 0.3 }] });
  await movements.withdraw({ currency: 'USDT', chain: 'TRX', address, amount: '12' }).catch(() => undefined);
  await movements.push({ receive_uid: sandbox.userId, currency: 'USDT', amount: '1' }).catch(() => undefined);
  await movements
    .transfer({ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' })
    .catch(() => undefined);
  await movements
    .subAccountTransfer({ sub_account: String(sub.user_id), currency: 'USDT', amount: '1', direction: 'to' })
    .catch(() => undefined);
  await control(sandbox, '/faults', undefined, 'DELETE');
  const key = await api.subAccounts.createKey(sub.user_id, {
    perms: [{ name: 'spot', read_only: true }],
    ip_whitelist: [],
  });
  // A key created through the operation: its secret goes to the shell's page and the keychain only.
  await call('keys.create', {
    userId: sub.user_id,
    name: 'leak-bot',
    mode: 'classic',
    perms: { spot: 'read' },
    ipWhitelist: [],
    keepSecretInKeychain: true,
  });
  const createdSecret = shownSecrets[0]?.secrets[0]?.value ?? '';
  expect(createdSecret.length).toBeGreaterThanOrEqual(32);
  await movements.reconcile();
  await core.history.start({
    kinds: ['deposits', 'withdrawals', 'pushes', 'subAccountTransfers'],
    from: Math.floor(Date.now() / 1000) - 90 * 86400,
    to: Math.floor(Date.now() / 1000),
  });
  await core.history.finished();
  await call('activity.exportAuditCsv', {});
  await call('activity.exportMovementsCsv', {});
  await call('activity.auditLog', { allProfiles: true });
  await call('activity.movements', {});
  // Every operation of the contract, with an empty payload: answers and errors alike are inspected.
  for (const name of operationNames(contract)) {
    if (name === 'profiles.remove' || name === 'profiles.removeKey' || name === 'profiles.switch') continue;
    await call(name, {});
  }
  await call('profiles.switch', { id });
  await call('profiles.switch', { id: 'local-sandbox' });
  await core.idle(); // the watchers' first round on the profile switched back to
  await core.close();

  const secrets = [account.secret, TYPED_SECRET, key.secret, createdSecret];
  // 1. IPC answers, events, log lines.
  expect(seen.length).toBeGreaterThan(50);
  for (const line of seen) for (const secret of secrets) expect(line.includes(secret), line.slice(0, 200)).toBe(false);
  // 2. Every file the app wrote (journal database, its WAL, anything else).
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(testCore.dataDir);
  expect(files.some((f) => f.endsWith('journal.sqlite'))).toBe(true);
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    for (const secret of secrets) expect(bytes.includes(Buffer.from(secret)), `${file} holds a secret`).toBe(false);
  }
  // 3. The keychain is where the typed secret went.
  expect((await keyStore.get(`profile:${id}`))?.secret).toBe(TYPED_SECRET);
}, 60_000);
