/**
 * Key rotation in bulk against the sandbox (docs/bulk.md, "Sub-accounts and keys in bulk"): the new
 * key has the same permissions and IP whitelist as the old one (the sandbox's own key table is read
 * before and after), its secret is given once (in the shell's own page — never in an answer to the
 * window — or in the encrypted file), and
 * `bulk.confirmRotation` deletes the old key only after the new one passed a signed read again —
 * a new key that is refused, or one the app no longer holds the secret of, keeps the old key.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import type { KeyHealthRow, RotatedKey } from '../../shared/contract/bulk';
import type { SecretView } from '../policies/confirmPage';
import { decryptKeyFile, type KeyFile } from '../subAccounts/keyFile';
import { autoShowSecret, withSandboxCore } from '../testing/core';

/** What the shell's own page showed (the person reads the new secrets there). */
const shown: SecretView[] = [];
const desk = withSandboxCore({
  sandbox: { seed: 33 },
  beforeCore: (sandbox) => control(sandbox, '/scale', { sub_accounts: 1 }),
  downloads: true,
  core: { showSecret: autoShowSecret(shown) },
});
const { value } = desk;
let sub = 0;

interface SandboxKey {
  key: string;
  secret: string;
  perms: string;
  ip_whitelist: string;
  mode: number;
}
const sandboxKeys = (): SandboxKey[] =>
  desk.sandbox.ctx.db
    .prepare('SELECT key, secret, perms, ip_whitelist, mode FROM api_keys WHERE user_id = ? ORDER BY created_at, key')
    .all(sub) as SandboxKey[];
const keyOf = (key: string) => sandboxKeys().find((k) => k.key === key);

const PERMS = [
  { name: 'wallet', read_only: true },
  { name: 'spot', read_only: false },
] as const;
const WHITELIST = ['127.0.0.1', '10.20.30.40'];

/** A sub-account key as an operator made it (through the platform API, main account's key). */
const makeKey = async (name: string) =>
  (
    await desk.core.ctx.platform().subAccounts.createKey(sub, {
      name,
      perms: PERMS.map((p) => ({ ...p })),
      ip_whitelist: WHITELIST,
    })
  ).key;

beforeAll(() => {
  sub = (
    desk.sandbox.ctx.db
      .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
      .get(desk.sandbox.userId) as { id: number }
  ).id;
});

describe('key rotation against the sandbox', () => {
  it('same permissions and whitelist, the secret given once, the old key deleted only after the new one works', async () => {
    const old = await makeKey('trading bot');
    const before = keyOf(old) as SandboxKey;
    expect(JSON.parse(before.ip_whitelist)).toEqual(WHITELIST);

    const rotated = await value<{ keys: RotatedKey[] }>('bulk.rotateKeys', {
      targets: [{ userId: sub, key: old }],
      deliver: { to: 'screen' },
    });
    const [k] = rotated.keys;
    expect(k).toMatchObject({ userId: sub, oldKey: old, state: 'verified', secretShown: true });
    const secret = shown.at(-1)?.secrets[0]?.value;
    const created = keyOf(k?.newKey as string) as SandboxKey;
    // The sandbox now holds both; the new one with the same permissions, whitelist and mode.
    expect(sandboxKeys().map((x) => x.key)).toEqual(expect.arrayContaining([old, k?.newKey]));
    expect(JSON.parse(created.perms)).toEqual(JSON.parse(before.perms));
    expect(JSON.parse(created.ip_whitelist)).toEqual(JSON.parse(before.ip_whitelist));
    expect(created.mode).toBe(before.mode);
    expect(created.secret).toBe(secret);

    // Shown once, in the shell's page: no answer to the window carries it.
    expect(JSON.stringify(rotated)).not.toContain(created.secret);
    const health = await value<{ keys: KeyHealthRow[] }>('bulk.keyHealth', { userIds: [sub], unusedDays: 30 });
    expect(JSON.stringify(health)).not.toContain(created.secret);

    // The new key stops working (its whitelist no longer names this computer): the old one stays.
    const whitelist = (ips: string[]) =>
      desk.core.ctx
        .platform()
        .subAccounts.updateKey(sub, created.key, { perms: PERMS.map((p) => ({ ...p })), ip_whitelist: ips });
    await whitelist(['10.20.30.40']);
    const refused = await value<{ keys: RotatedKey[] }>('bulk.confirmRotation', {
      pairs: [{ userId: sub, oldKey: old, newKey: created.key }],
    });
    expect(refused.keys[0]).toMatchObject({ state: 'failed', message: expect.stringMatching(/old key was kept/) });
    expect(keyOf(old)).toBeDefined();

    // A key whose secret the app does not hold (another one, or after a restart) keeps the old key too.
    const stranger = await value<{ keys: RotatedKey[] }>('bulk.confirmRotation', {
      pairs: [{ userId: sub, oldKey: old, newKey: old }],
    });
    expect(stranger.keys[0]).toMatchObject({ state: 'failed' });
    expect(keyOf(old)).toBeDefined();

    // The new key works again: the test passes, then (only then) the old key is deleted.
    await whitelist(WHITELIST);
    const replaced = await value<{ keys: RotatedKey[] }>('bulk.confirmRotation', {
      pairs: [{ userId: sub, oldKey: old, newKey: created.key }],
    });
    expect(replaced.keys[0]).toMatchObject({ state: 'replaced', newKey: created.key });
    expect(JSON.stringify(replaced)).not.toContain(created.secret);
    expect(keyOf(old)).toBeUndefined();
    expect(keyOf(created.key)).toBeDefined();

    // Done once: the app forgot the secret, a second confirmation deletes nothing more.
    const again = await value<{ keys: RotatedKey[] }>('bulk.confirmRotation', {
      pairs: [{ userId: sub, oldKey: created.key, newKey: created.key }],
    });
    expect(again.keys[0]?.state).toBe('failed');
    expect(keyOf(created.key)).toBeDefined();
  }, 30_000);

  it('to an encrypted file: the secret is only in the file, which decrypts with the passphrase', async () => {
    const old = await makeKey('reporting');
    const passphrase = 'correct horse battery staple';
    const rotated = await value<{ keys: RotatedKey[]; file?: string }>('bulk.rotateKeys', {
      targets: [{ userId: sub, key: old }],
      deliver: { to: 'file', passphrase },
    });
    const [k] = rotated.keys;
    expect(k).toMatchObject({ state: 'verified' });
    expect(k?.secretShown).toBeUndefined();
    const file = JSON.parse(readFileSync(rotated.file as string, 'utf8')) as KeyFile;
    const created = keyOf(k?.newKey as string) as SandboxKey;
    expect(readFileSync(rotated.file as string, 'utf8')).not.toContain(created.secret);
    expect(decryptKeyFile(file, passphrase)).toEqual([
      expect.objectContaining({ userId: sub, key: created.key, secret: created.secret, replaces: old }),
    ]);
    expect(() => decryptKeyFile(file, 'not the passphrase')).toThrow();
    const replaced = await value<{ keys: RotatedKey[] }>('bulk.confirmRotation', {
      pairs: [{ userId: sub, oldKey: old, newKey: created.key }],
    });
    expect(replaced.keys[0]?.state).toBe('replaced');
    expect(keyOf(old)).toBeUndefined();
  }, 30_000);

  // Last: it adds a second administrator, which puts four eyes in force for the rest of the file.
  it('with two administrators a bulk rotation is refused and creates no key (one administrator would get every new secret alone)', async () => {
    const old = await makeKey('payouts');
    await value('operators.create', { name: 'second admin', role: 'admin', passphrase: 'a second long passphrase' });
    const keysBefore = sandboxKeys().map((k) => k.key);
    const shownBefore = shown.length;
    const refused = await desk.call('bulk.rotateKeys', {
      targets: [{ userId: sub, key: old }],
      deliver: { to: 'screen' },
    });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Four eyes are in force/) } });
    expect(sandboxKeys().map((k) => k.key)).toEqual(keysBefore);
    expect(shown.length).toBe(shownBefore);
  }, 30_000);
});
