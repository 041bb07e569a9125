/**
 * Unit tests of the journal's decisions against a scripted platform (the fault test covers the
 * real sandbox): when an outcome is unknown, nothing may be sent twice and nothing may be lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/apiError';
import type { PlatformApi } from '../api/platform';
import { openJournalDb } from '../journal/db';
import { MovementService, type MovementServiceOptions } from './service';
import type { Movement } from './types';

const PROFILE = 'p1';
const MINUTE = 60_000;

const cut = (path: string) =>
  new ApiError({
    kind: 'interrupted',
    status: 0,
    label: 'NETWORK_INTERRUPTED',
    message: 'socket hang up',
    requestId: 'td-test',
    method: 'POST',
    path,
  });

const refusal = (label: string, status: number, path: string) =>
  new ApiError({ kind: 'platform', status, label, message: label, requestId: 'td-test', method: 'POST', path });
const notFound = (path: string) => refusal('NOT_FOUND', 404, path);

/** A promise the test resolves by hand. */
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

type Fake = {
  withdraw?: (body: { withdraw_order_id: string }) => Promise<unknown>;
  withdrawals?: (query: { from?: number; to?: number }) => Promise<unknown[]>;
  push?: () => Promise<unknown>;
  pushRecords?: () => Promise<unknown[]>;
  futuresBook?: () => Promise<unknown[]>;
  subAccountTransfer?: (body: { client_order_id: string }) => Promise<unknown>;
  orderStatus?: (query: { client_order_id: string }) => Promise<{ tx_id: string; status: string }>;
  /** The platform's clock minus ours, once measured (the app measures it on connect). */
  platformOffsetMs?: number;
  /** Whether the offset has been measured before the journal looks anything up. */
  clockMeasured?: boolean;
};

const setup = (fake: Fake, options: Partial<MovementServiceOptions> = {}) => {
  const db = openJournalDb(':memory:');
  const clock = { now: 1_800_000_000_000 };
  const calls = { withdraw: 0, push: 0, withdrawals: 0, pushRecords: 0, transfer: 0, subTransfer: 0, orderStatus: 0 };
  const measured = { offsetMs: fake.platformOffsetMs ?? 0, rttMs: 1, measuredAt: clock.now };
  const platformClock: { offsetMs: number; last: typeof measured | undefined } = {
    offsetMs: fake.clockMeasured === false ? 0 : measured.offsetMs,
    last: fake.clockMeasured === false ? undefined : measured,
  };
  const api = {
    client: {
      clock: platformClock,
      syncClock: async () => {
        platformClock.offsetMs = measured.offsetMs;
        platformClock.last = measured;
        return measured.offsetMs;
      },
    },
    withdrawals: {
      create: async (body: { withdraw_order_id: string }) => {
        calls.withdraw++;
        return (fake.withdraw ?? (() => Promise.reject(cut('/withdrawals'))))(body);
      },
      push: async () => {
        calls.push++;
        return (fake.push ?? (() => Promise.reject(cut('/withdrawals/push'))))();
      },
    },
    wallet: {
      withdrawals: async (query: { from?: number; to?: number }) => {
        calls.withdrawals++;
        return (fake.withdrawals ?? (async () => []))(query);
      },
      pushRecords: async () => {
        calls.pushRecords++;
        return (fake.pushRecords ?? (async () => []))();
      },
      transfer: async () => {
        calls.transfer++;
        return { tx_id: `t${calls.transfer}` };
      },
      subAccountTransfer: async (body: { client_order_id: string }) => {
        calls.subTransfer++;
        return (fake.subAccountTransfer ?? (() => Promise.reject(cut('/wallet/sub_account_transfers'))))(body);
      },
      orderStatus: async (query: { client_order_id: string }) => {
        calls.orderStatus++;
        return (fake.orderStatus ?? (() => Promise.reject(notFound('/wallet/order_status'))))(query);
      },
    },
    books: { futures: async () => (fake.futuresBook ?? (async () => []))() },
  } as unknown as PlatformApi;
  const changes: Movement[] = [];
  const service = new MovementService({
    db,
    profileId: () => PROFILE,
    platform: () => api,
    onChange: (m) => changes.push(m),
    now: () => clock.now,
    settleMs: 20_000,
    backgroundMs: 0,
    ...options,
  });
  const insert = (row: {
    kind: string;
    state: string;
    clientId?: string;
    createdAt: number;
    sentAt?: number;
    id?: string;
  }) => {
    const params =
      row.kind === 'withdrawal'
        ? { currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' }
        : row.kind === 'transfer'
          ? { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '10' }
          : { receive_uid: 42, currency: 'USDT', amount: '10' };
    db.prepare(
      `INSERT INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at, sent_at)
       VALUES (?, ?, ?, ?, ?, 'USDT', '10', ?, ?, ?, ?, ?)`,
    ).run(
      row.id ?? 'i1',
      PROFILE,
      row.kind,
      row.state,
      row.clientId ?? '',
      JSON.stringify(params),
      row.state === 'prepared' ? 0 : 1,
      row.createdAt,
      row.createdAt,
      row.sentAt ?? null,
    );
  };
  return { db, clock, calls, service, insert, changes };
};

const pushRecord = (id: string, createSec: number) => ({
  id,
  push_uid: 1,
  receive_uid: 42,
  currency: 'USDT',
  amount: '10',
  create_time: createSec,
  status: 'PENDING',
});

describe('money movement journal', () => {
  it('does not send, long after it was asked for, an intent the app crashed before sending', async () => {
    const { clock, calls, service, insert } = setup({});
    // Journaled, then the app died before the request left; it restarts the next day.
    insert({ kind: 'withdrawal', state: 'prepared', clientId: 'tdCRASHED', createdAt: clock.now - 24 * 60 * MINUTE });
    await service.reconcile();
    expect(calls.withdraw).toBe(0);
    expect(service.get('i1')).toMatchObject({ state: 'failed', label: 'NEVER_EXECUTED' });
  });

  it('waits settleMs after the request really left (not after it queued) before calling a push absent', async () => {
    // The push waits 40 s in the rate limiter (1 per 10 s), leaves, and its answer is lost.
    const s = setup({
      push: async () => {
        s.clock.now += 40_000;
        throw cut('/withdrawals/push');
      },
    });
    await expect(s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' })).rejects.toMatchObject({
      detail: { code: 'OUTCOME_UNKNOWN' },
    });
    expect(s.calls.push).toBe(1);
    expect(s.service.list()[0]?.state).toBe('unknown');
  });

  it('after a crash, does not resend a push whose request may have left just before the crash', async () => {
    const { clock, calls, service, insert } = setup({});
    // `sent` was written 60 s before the crash (the request queued in the limiter, then left).
    insert({ kind: 'push', state: 'sent', createdAt: clock.now - 61_000, sentAt: clock.now - 60_000 });
    await service.reconcile();
    expect(calls.push).toBe(0);
    expect(service.get('i1')?.state).toBe('unknown');
  });

  it('does not resend a withdrawal the moment a lookup misses it (the request may still be on its way)', async () => {
    const { calls, service } = setup({});
    await expect(
      service.withdraw({ currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' }),
    ).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
    expect(calls.withdraw).toBe(1);
  });

  it('resends a withdrawal proven absent after settling, with the same withdraw_order_id', async () => {
    const ids: string[] = [];
    // First attempt cut; by the time the journal looks it up, settleMs has passed.
    const s = setup({
      withdraw: async (body) => {
        ids.push(body.withdraw_order_id);
        if (ids.length === 1) throw cut('/withdrawals');
        return { id: 'w1', status: 'REQUEST', withdraw_order_id: body.withdraw_order_id };
      },
      withdrawals: async () => {
        s.clock.now += 25_000;
        return [];
      },
    });
    const done = await s.service.withdraw({ currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' });
    expect(done).toMatchObject({ state: 'done', platformId: 'w1' });
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[0]).toMatch(/^[0-9A-Za-z_.-]{1,32}$/);
  });

  it('settles an intent left unknown for longer than the platform’s 30-day query window', async () => {
    const s = setup({
      withdrawals: async ({ from = 0, to = Math.floor(s.clock.now / 1000) }) => {
        if (to - from > 30 * 86_400) throw new Error('INVALID_PARAM_VALUE: time range must not exceed 30 days');
        return [{ id: 'w9', withdraw_order_id: 'tdOLD', status: 'DONE', currency: 'USDT', amount: '10' }];
      },
    });
    // The app was closed for 40 days with this withdrawal's outcome unknown.
    s.insert({ kind: 'withdrawal', state: 'unknown', clientId: 'tdOLD', createdAt: s.clock.now - 40 * 86_400_000 });
    await s.service.reconcile();
    expect(s.service.get('i1')).toMatchObject({ state: 'done', platformId: 'w9' });
  });

  it('identical transfers in the same second: one book entry is never claimed by two intents', async () => {
    const T = Math.floor(1_800_000_000_000 / 1000);
    // Futures book entries carry no id. E1 is 12 s old; E2 and E3 came in the same second.
    const entry = (time: number, balance: string) => ({ time, change: '10', balance, currency: 'USDT' });
    const s = setup({ futuresBook: async () => [entry(T - 12, '10'), entry(T - 3, '20'), entry(T - 3, '30')] });
    // Four identical transfers with lost answers; only three executed (E1, E2, E3).
    const old = s.clock.now - 60_000;
    for (const [id, age] of [
      ['x', 20],
      ['w', 19],
      ['w2', 18],
      ['n', 6],
    ] as const) {
      s.insert({ id, kind: 'transfer', state: 'unknown', createdAt: s.clock.now - age * 1000, sentAt: old });
    }
    await s.service.reconcile();
    // Three are matched with the three entries; the fourth proves absent and is sent again.
    expect(s.calls.transfer).toBe(1);
  });

  it('on start, looks records up on the platform’s clock even before the connection check measured it', async () => {
    // This computer's clock runs 10 s ahead; the core reconciles as soon as the profile switches,
    // while the connection check is still measuring the offset.
    const s = setup({
      platformOffsetMs: -10_000,
      clockMeasured: false,
      pushRecords: async () => [pushRecord('P7', Math.floor((s.clock.now - 120_000 - 10_000) / 1000) + 1)],
    });
    s.insert({ kind: 'push', state: 'unknown', createdAt: s.clock.now - 120_000, sentAt: s.clock.now - 119_000 });
    await s.service.reconcile();
    expect(s.calls.push).toBe(0);
    expect(s.service.get('i1')).toMatchObject({ state: 'done', platformId: 'P7' });
  });

  it('two identical pushes with lost answers never claim the same platform record', async () => {
    const both = deferred<void>();
    let lookups = 0;
    const s = setup({
      pushRecords: async () => {
        if (++lookups === 2) both.resolve();
        await both.promise;
        return [pushRecord('P1', Math.floor(s.clock.now / 1000))];
      },
    });
    const request = { receive_uid: 42, currency: 'USDT', amount: '10' };
    const results = await Promise.allSettled([s.service.push(request), s.service.push(request)]);
    const platformIds = s.service
      .list()
      .map((m) => m.platformId)
      .filter((id) => id !== undefined);
    expect(platformIds).toEqual(['P1']); // one of them has it; the other is still being checked
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(s.calls.push).toBe(2);
  });

  it('does not claim a record while an identical push is still on the wire', async () => {
    const answer = deferred<{ id: string }>();
    const s = setup({ push: () => answer.promise, pushRecords: async () => [pushRecord('P1', 0)] });
    // An older identical push, outcome unknown since before.
    s.insert({ kind: 'push', state: 'unknown', createdAt: s.clock.now - 120_000, sentAt: s.clock.now - 100_000 });
    const second = s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.service.list({ state: 'sent' })).toHaveLength(1);
    // The platform already lists the second push's record (P1) but its answer has not come back.
    const reconciling = s.service.reconcile(); // settles i1, then waits for the second's answer
    while (s.calls.pushRecords === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.service.get('i1')?.platformId).toBeUndefined();
    answer.resolve({ id: 'P1' });
    await expect(second).resolves.toMatchObject({ state: 'done', platformId: 'P1' });
    await reconciling;
    expect(s.service.get('i1')?.platformId).toBeUndefined();
  });

  it.each([
    ['a minute', MINUTE],
    ['20 minutes', 20 * MINUTE],
  ])(
    'a movement (%s old) settled by hand while a lookup runs is neither sent again nor overwritten',
    async (_, age) => {
      const lookup = deferred<unknown[]>();
      const s = setup({ withdrawals: () => lookup.promise }, { settleMs: 0 });
      s.insert({ kind: 'withdrawal', state: 'unknown', clientId: 'tdHAND', createdAt: s.clock.now - age });
      const reconciling = s.service.reconcile();
      await new Promise((resolve) => setImmediate(resolve));
      expect(s.calls.withdrawals).toBe(1);
      s.service.resolveManually('i1', 'done', 'seen on the platform’s website');
      lookup.resolve([]);
      await reconciling;
      expect(s.calls.withdraw).toBe(0);
      expect(s.service.get('i1')?.state).toBe('done');
    },
  );

  it('refuses to settle by hand a movement still waiting for its answer (the answer would overwrite it)', async () => {
    const answer = deferred<never>();
    const s = setup({ push: () => answer.promise });
    const pushing = s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' });
    await new Promise((resolve) => setImmediate(resolve));
    const [sent] = s.service.list({ state: 'sent' });
    expect(() => s.service.resolveManually(sent?.id as string, 'failed', 'looks stuck')).toThrow(/answer/);
    answer.resolve(undefined as never);
    await pushing.catch(() => undefined);
  });
});

describe('request keys: one confirmation is one movement', () => {
  const KEY = '0b6f6c52-4a51-4d0e-9c39-3f1f6f3a8d11';
  const withdrawal = { currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' };

  it('two calls with the same key at once send one withdrawal and both get it', async () => {
    const answer = deferred<unknown>();
    const s = setup({ withdraw: () => answer.promise });
    const first = s.service.withdraw(withdrawal, { requestKey: KEY });
    const second = s.service.withdraw(withdrawal, { requestKey: KEY });
    await new Promise((resolve) => setImmediate(resolve));
    answer.resolve({ id: 'w1', status: 'REQUEST' });
    const [a, b] = await Promise.all([first, second]);
    expect(s.calls.withdraw).toBe(1);
    expect(b).toMatchObject({ id: a.id, state: 'done', platformId: 'w1' });
    expect(s.service.list()).toHaveLength(1);
    // Later repeats (a retry, a re-render) still answer with the same movement, sending nothing.
    await expect(s.service.withdraw(withdrawal, { requestKey: KEY })).resolves.toMatchObject({ id: a.id });
    expect(s.calls.withdraw).toBe(1);
  });

  it('refuses the key of one confirmation for a different movement, sending nothing', async () => {
    const s = setup({ withdraw: async () => ({ id: 'w1', status: 'REQUEST' }) });
    await s.service.withdraw(withdrawal, { requestKey: KEY });
    await expect(s.service.withdraw({ ...withdrawal, amount: '11' }, { requestKey: KEY })).rejects.toMatchObject({
      detail: { code: 'INVALID_INPUT' },
    });
    await expect(
      s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' }, { requestKey: KEY }),
    ).rejects.toThrow(/different movement/);
    expect(s.calls.withdraw).toBe(1);
    expect(s.calls.push).toBe(0);
  });

  it('a repeat after a restart, while the first was on the wire when the app died, settles it and sends nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'movements-key-'));
    try {
      const before = openJournalDb(dir);
      const lost = setup({ withdraw: () => new Promise(() => {}) }, { db: before });
      void lost.service.withdraw(withdrawal, { requestKey: KEY });
      await new Promise((resolve) => setImmediate(resolve));
      expect(lost.calls.withdraw).toBe(1);
      lost.service.close();
      before.close(); // the app dies with the request on the wire

      const after = openJournalDb(dir);
      const [row] = after.prepare('SELECT client_id, state FROM intents').all() as {
        client_id: string;
        state: string;
      }[];
      expect(row?.state).toBe('sent');
      const restarted = setup(
        { withdrawals: async () => [{ id: 'w9', withdraw_order_id: row?.client_id, status: 'REQUEST' }] },
        { db: after },
      );
      const joined = await restarted.service.withdraw(withdrawal, { requestKey: KEY });
      expect(joined).toMatchObject({ state: 'done', platformId: 'w9', clientId: row?.client_id });
      expect(restarted.calls.withdraw).toBe(0);
      expect(after.prepare('SELECT COUNT(*) AS n FROM intents').get()).toEqual({ n: 1 });
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('answers that are not proof', () => {
  it('DUPLICATE_REQUEST then a lookup that cannot find it stays unknown for a person, never failed or resent', async () => {
    const s = setup(
      { withdraw: () => Promise.reject(refusal('DUPLICATE_REQUEST', 400, '/withdrawals')) },
      { settleMs: 0 },
    );
    await expect(
      s.service.withdraw({ currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' }),
    ).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
    for (const minutes of [1, 11, 60]) {
      s.clock.now += minutes * MINUTE;
      await s.service.reconcile();
    }
    const [movement] = s.service.list();
    expect(movement).toMatchObject({ state: 'unknown', label: 'DUPLICATE_REQUEST' });
    expect(movement?.message).toMatch(/settle it by hand/);
    expect(s.calls.withdraw).toBe(1);
    expect(s.calls.withdrawals).toBeGreaterThanOrEqual(3);
    // A person who checked the platform can settle it.
    expect(s.service.resolveManually(movement?.id as string, 'done', 'seen on the website').state).toBe('done');
  });

  it('an order_status that is not the documented success keeps a transfer checking, with that status shown', async () => {
    let status = 'PENDING';
    const s = setup({ orderStatus: async () => ({ tx_id: '77', status }) }, { settleMs: 0 });
    const sending = s.service.subAccountTransfer({
      sub_account: '9',
      sub_account_type: 'spot',
      currency: 'USDT',
      amount: '10',
      direction: 'to',
    });
    await expect(sending).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
    const [checking] = s.service.list();
    expect(checking).toMatchObject({ state: 'unknown', platformStatus: 'PENDING' });
    expect(checking?.message).toMatch(/PENDING/);
    expect(checking?.platformId).toBeUndefined();

    status = 'MYSTERY';
    await s.service.reconcile();
    expect(s.service.list()[0]).toMatchObject({ state: 'unknown', platformStatus: 'MYSTERY' });

    status = 'SUCCESS';
    await s.service.reconcile();
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: '77' });
    expect(s.calls.subTransfer).toBe(1);
  });
});
