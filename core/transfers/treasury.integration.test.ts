/**
 * The transfers, subAccounts and keys operations through the real core (dispatcher, API client,
 * movements journal) against a real in-process sandbox over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SecretView } from '../policies/confirmPage';
import { subKeyEntry } from '../subAccounts/views';
import { autoShowSecret, withSandboxCore } from '../testing/core';

// The core asks the sandbox for a fresh main account, with spot USDT. New secrets are shown in the
// shell's own page: here, `shown` records them.
const shown: SecretView[] = [];
const desk = withSandboxCore({ account: 'fresh', spot: { USDT: '1000' }, core: { showSecret: autoShowSecret(shown) } });
const { call, value } = desk;

describe('sub-accounts, keys and transfers against the sandbox', () => {
  it('runs the whole lifecycle; a new key’s secret is shown in the shell’s page, never returned', async () => {
    const refused = await call('subAccounts.create', { loginName: 'bad name' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    const sub = await value<{ userId: number; state: string }>('subAccounts.create', { loginName: 'int_desk_1' });
    expect(sub.state).toBe('normal');
    const { accounts } = await value<{ accounts: { userId: number }[] }>('subAccounts.list', {});
    expect(accounts.map((a) => a.userId)).toContain(sub.userId);

    // Key: created with the whole matrix and whitelist; secret kept only because asked.
    const answer = await call('keys.create', {
      userId: sub.userId,
      name: 'int-bot',
      mode: 'classic',
      perms: { wallet: 'write', spot: 'read' },
      ipWhitelist: ['203.0.113.7', '198.51.100.1'],
      keepSecretInKeychain: true,
    });
    if (!answer.ok) throw new Error(JSON.stringify(answer.error));
    const created = answer.value as {
      key: { key: string; ipWhitelist: string[] };
      secretShown: boolean;
      secretStored: boolean;
    };
    const secret = shown.at(-1)?.secrets[0]?.value ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(shown.at(-1)?.rows).toContainEqual({ label: 'Key', value: created.key.key });
    // The window gets the key and where its secret went, never the secret; the keychain keeps it.
    expect(created).toMatchObject({ secretShown: true, secretStored: true });
    expect(JSON.stringify(answer)).not.toContain(secret);
    const entry = subKeyEntry(desk.core.ctx.activeProfile()?.id ?? '', sub.userId, created.key.key);
    expect((await desk.core.ctx.keyStore.get(entry))?.secret).toBe(secret);
    expect(created.key.ipWhitelist).toEqual(['203.0.113.7', '198.51.100.1']);
    const listed = await value<{ keys: { key: string; perms: unknown; secretInKeychain: boolean }[] }>('keys.list', {
      userId: sub.userId,
    });
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(listed.keys[0]).toMatchObject({
      key: created.key.key,
      perms: { wallet: 'write', spot: 'read' },
      secretInKeychain: true,
    });

    // An edit that changes only the name keeps the whitelist (it is always sent in full).
    const updated = await value<{ name: string; ipWhitelist: string[] }>('keys.update', {
      userId: sub.userId,
      key: created.key.key,
      name: 'int-bot-2',
      perms: { wallet: 'write', spot: 'read' },
      ipWhitelist: ['203.0.113.7', '198.51.100.1'],
    });
    expect(updated).toMatchObject({ name: 'int-bot-2', ipWhitelist: ['203.0.113.7', '198.51.100.1'] });

    // Transfer in, freeze → refused with SUB_ACCOUNT_LOCKED, unfreeze → works again.
    const send = (amount: string) =>
      call('transfers.send', {
        requestKey: randomUUID(),
        kind: 'mainSub',
        direction: 'to',
        subUserId: sub.userId,
        subAccountType: 'spot',
        currency: 'USDT',
        amount,
      });
    const first = await send('10');
    expect(first, JSON.stringify(first)).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(await value('subAccounts.lock', { userId: sub.userId })).toMatchObject({ state: 'frozen' });
    expect(await send('1')).toMatchObject({ ok: false, error: { code: 'PLATFORM', label: 'SUB_ACCOUNT_LOCKED' } });
    expect(await value('subAccounts.unlock', { userId: sub.userId })).toMatchObject({ state: 'normal' });
    expect(await send('2.5')).toMatchObject({ ok: true, value: { state: 'done' } });

    const available = await value<{ available: string }>('transfers.available', {
      owner: sub.userId,
      account: 'spot',
      currency: 'USDT',
    });
    expect(available.available).toMatch(/^12\.50*$/);

    const history = await value<{ records: { state: string; amount: string; source: string }[] }>('transfers.history', {
      subUserId: sub.userId,
    });
    const done = history.records.filter((r) => r.state === 'done').map((r) => r.amount);
    expect(done.sort()).toEqual(['10', '2.5'].sort());
    expect(history.records.some((r) => r.state === 'failed' && r.source === 'journal')).toBe(true);

    // Delete forgets the keychain copy.
    expect(await value('keys.delete', { userId: sub.userId, key: created.key.key })).toEqual({
      deleted: true,
      secretForgotten: true,
    });
  });

  it('moves funds sub → sub into futures and between own accounts, and lists both in the history', async () => {
    const a = await value<{ userId: number }>('subAccounts.create', { loginName: 'int_desk_2' });
    const b = await value<{ userId: number }>('subAccounts.create', { loginName: 'int_desk_3' });
    await value('transfers.send', {
      requestKey: randomUUID(),
      kind: 'mainSub',
      direction: 'to',
      subUserId: a.userId,
      subAccountType: 'spot',
      currency: 'USDT',
      amount: '20',
    });
    const subSub = await value<{ state: string }>('transfers.send', {
      requestKey: randomUUID(),
      kind: 'subSub',
      fromUserId: a.userId,
      fromType: 'spot',
      toUserId: b.userId,
      toType: 'futures',
      currency: 'USDT',
      amount: '4.25',
    });
    expect(subSub.state).toBe('done');
    const futures = await value<{ available: string }>('transfers.available', {
      owner: b.userId,
      account: 'futures',
      currency: 'USDT',
    });
    expect(futures.available).toMatch(/^4\.250*$/);
    const left = await value<{ available: string }>('transfers.available', {
      owner: a.userId,
      account: 'spot',
      currency: 'USDT',
    });
    expect(left.available).toMatch(/^15\.750*$/);

    const own = await value<{ state: string }>('transfers.send', {
      requestKey: randomUUID(),
      kind: 'own',
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      settle: 'usdt',
      amount: '3',
    });
    expect(own.state).toBe('done');
    // A repeat of that confirmation (double click, retry) is the same transfer, not a second one.
    const ownTransfers = desk.core.movementService.list({ kind: 'transfer' }).length;
    const again = {
      requestKey: randomUUID(),
      kind: 'own',
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      settle: 'usdt',
      amount: '2',
    };
    const [x, y] = await Promise.all([
      value<{ id: string; state: string }>('transfers.send', again),
      value<{ id: string; state: string }>('transfers.send', again),
    ]);
    expect(x.state).toBe('done');
    expect(y.id).toBe(x.id);
    expect(desk.core.movementService.list({ kind: 'transfer' })).toHaveLength(ownTransfers + 1);
    // Other accounts than spot are not read by the app: the platform checks the amount.
    expect(
      await value('transfers.available', { owner: 'main', account: 'futures', currency: 'USDT', settle: 'usdt' }),
    ).toMatchObject({ available: null });

    const { records } = await value<{ records: { kind: string; from: string; to: string; state: string }[] }>(
      'transfers.history',
      {},
    );
    expect(records.find((r) => r.kind === 'subSub')).toMatchObject({
      from: `int_desk_2 (UID ${a.userId}) · spot`,
      to: `int_desk_3 (UID ${b.userId}) · perpetual futures`,
      state: 'done',
    });
    expect(records.find((r) => r.kind === 'own')).toMatchObject({
      from: 'Main · spot (settle USDT)',
      to: 'Main · perpetual futures (settle USDT)',
      state: 'done',
    });
    // Filtered by a sub-account, own-account transfers are left out.
    const filtered = await value<{ records: { kind: string }[] }>('transfers.history', { subUserId: b.userId });
    expect(filtered.records.map((r) => r.kind)).toEqual(['subSub']);
  });

  it('refuses a 9-decimal amount in main, before anything is journaled', async () => {
    const journaled = desk.core.movementService.list({ kind: 'transfer' }).length;
    const result = await call('transfers.send', {
      requestKey: randomUUID(),
      kind: 'own',
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      settle: 'usdt',
      amount: '1.123456789',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(desk.core.movementService.list({ kind: 'transfer' })).toHaveLength(journaled);
  });
});
