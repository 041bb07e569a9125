import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledEntry } from '../../sandbox/testing/bundledEntry';
import { MemoryKeyStore } from './keyStore';
import { OsKeyStore } from './osKeyStore';

// The OS adapter runs against a real Secret Service: `scripts/with-keychain.sh npx vitest run …`
// (npm test runs the suite inside such a session). Without a D-Bus session bus there is no
// keychain to test against, so a local run skips the suite with the reason printed; on CI, where
// `npm test` must have started the keyring, a missing bus is a failure, never a silent skip.
const hasBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS) || process.platform !== 'linux';
if (!hasBus && process.env.CI) {
  throw new Error(
    'No D-Bus session bus on CI: npm test runs Vitest inside scripts/with-keychain.sh; did it fail to start?',
  );
}
if (!hasBus) {
  console.warn('osKeyStore.test: skipped — no D-Bus session bus; run it with scripts/with-keychain.sh');
}

describe.skipIf(!hasBus)('OsKeyStore (real Secret Service)', () => {
  // A separate service name so tests never touch the app's real entries.
  const store = new OsKeyStore(`Treasury Desk test ${randomUUID()}`);

  it('stores, reads back, replaces and deletes a key', async () => {
    const entry = `profile:${randomUUID()}`;
    expect(await store.get(entry)).toBeUndefined();
    await store.set(entry, { key: 'key-one', secret: 's3cret-one' });
    expect(await store.get(entry)).toEqual({ key: 'key-one', secret: 's3cret-one' });
    await store.set(entry, { key: 'key-two', secret: 's3cret-two' });
    expect(await store.get(entry)).toEqual({ key: 'key-two', secret: 's3cret-two' });
    expect(await store.delete(entry)).toBe(true);
    expect(await store.get(entry)).toBeUndefined();
    expect(await store.delete(entry)).toBe(false);
  });

  it('reports itself available', async () => {
    expect(await store.probe()).toEqual({ available: true });
  });
});

describe.skipIf(process.platform !== 'linux')('OsKeyStore without a keychain', () => {
  it('fails with a KEYCHAIN error that says how to fix it, never falling back to plaintext', async () => {
    // A fresh process whose session bus does not exist (the library caches its connection), loading
    // the adapter bundled into plain JavaScript (tsx cost 0.2 s more CPU per start).
    const adapter = await bundledEntry(path.join(import.meta.dirname, 'osKeyStore.ts'));
    const script = `
      import { OsKeyStore } from ${JSON.stringify(pathToFileURL(adapter).href)};
      const store = new OsKeyStore('Treasury Desk test no-bus');
      const error = await store.set('x', { key: 'k', secret: 'TOPSECRETVALUE' }).catch((e) => e);
      const probe = await store.probe();
      console.log(JSON.stringify({ detail: error?.detail, probe }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/treasury-desk-test-bus' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1) as string);
    expect(result.detail.code).toBe('KEYCHAIN');
    expect(result.detail.advice).toMatch(/gnome-keyring|Secret Service/);
    expect(result.probe.available).toBe(false);
    expect(out).not.toContain('TOPSECRETVALUE');
  });
});

describe('MemoryKeyStore', () => {
  it('returns copies, so callers cannot change what is stored', async () => {
    const store = new MemoryKeyStore();
    await store.set('a', { key: 'k', secret: 's' });
    const got = await store.get('a');
    (got as { secret: string }).secret = 'changed';
    expect((await store.get('a'))?.secret).toBe('s');
  });
});
