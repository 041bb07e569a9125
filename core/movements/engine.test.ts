/**
 * Unit tests of the journal's decisions against a scripted platform (the fault test covers the
 * real sandbox): when an outcome is unknown, nothing may be sent twice and nothing may be lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AMBIGUOUS_RECORD } from '../../shared/contract/activity';
import { ApiError } from '../api/apiError';
import { PlatformClock } from '../api/clock';
import type { PlatformApi } from '../api/platform';
import { openJournalDb } from '../journal/db';
import { ManualScheduler } from '../testing/scheduler';
import { MovementEngine, type MovementEngineOptions } from './engine';
import type { Movement } from './types';

/**
 * Each test's time: a manual scheduler that runs the engine's pauses between lookup rounds in order
 * without waiting (autoAdvance). `clock.now` is the computer's wall clock: moving it forward is time
 * passing (both clocks), setting it back is a step of the wall clock alone.
 */
const schedulers: ManualScheduler[] = [];
afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.close();
});
const testTime = (offset: { platformOffsetMs: number }, measured: boolean) => {
  const scheduler = new ManualScheduler({ wallStart: 1_800_000_000_000, autoAdvance: true });
  schedulers.push(scheduler);
  const clock = {
    get now() {
      return scheduler.wallNow();
    },
    set now(wall: number) {
      const by = wall - scheduler.wallNow();
      if (by >= 0) scheduler.jump(by);
      else scheduler.stepWall(by);
    },
  };
  // The platform's clock: `platformOffsetMs` ahead of the computer's wall clock (as it is when measured).
  const platformClock = new PlatformClock(scheduler);
  const syncClock = async () =>
    (await platformClock.measure(async () => scheduler.wallNow() + offset.platformOffsetMs)).offsetMs;
  if (measured) void syncClock();
  return { scheduler, clock, platformClock, syncClock };
};

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
  push?: (opt: { onSigned?: (timestampSec: number) => void }) => Promise<unknown>;
  pushRecords?: () => Promise<unknown[]>;
  futuresBook?: () => Promise<unknown[]>;
  transfer?: () => Promise<unknown>;
  subAccountTransfer?: (body: { client_order_id: string }) => Promise<unknown>;
  orderStatus?: (query: { client_order_id: string }) => Promise<{ tx_id: string; status: string }>;
  /** The platform's clock minus ours, once measured (the app measures it on connect). */
  platformOffsetMs?: number;
  /** Whether the offset has been measured before the journal looks anything up. */
  clockMeasured?: boolean;
};

const setup = (fake: Fake, options: Partial<MovementEngineOptions> = {}) => {
  const db = openJournalDb(':memory:');
  /** The platform's clock minus the computer's (a test moves it to make the platform's clock jump). */
  const platform = { platformOffsetMs: fake.platformOffsetMs ?? 0 };
  const { scheduler, clock, platformClock, syncClock } = testTime(platform, fake.clockMeasured !== false);
  const calls = { withdraw: 0, push: 0, withdrawals: 0, pushRecords: 0, transfer: 0, subTransfer: 0, orderStatus: 0 };
  const api = {
    client: { clock: platformClock, syncClock },
    withdrawals: {
      create: async (body: { withdraw_order_id: string }) => {
        calls.withdraw++;
        return (fake.withdraw ?? (() => Promise.reject(cut('/withdrawals'))))(body);
      },
      push: async (_body: unknown, opt: { onSigned?: (timestampSec: number) => void } = {}) => {
        calls.push++;
        return (fake.push ?? (() => Promise.reject(cut('/withdrawals/push'))))(opt);
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
        if (fake.transfer) return fake.transfer();
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
  const service = new MovementEngine({
    db,
    profileId: () => PROFILE,
    platform: () => api,
    onChange: (m) => changes.push(m),
    scheduler,
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
  return { db, clock, scheduler, platform, syncClock, calls, service, insert, changes };
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
      lost.service.stop();
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

/** A journal on disk shared by two "runs" of the app (a crash between them). */
const withJournalDir = async (run: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), 'movements-'));
  try {
    await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('a clock that moves between the intent and its lookup', () => {
  const T = 1_800_000_000_000; // the real (platform) time when the movement is confirmed
  const transferEntry = (timeSec: number) => ({ time: timeSec, change: '10', balance: '10', currency: 'USDT' });

  // [what happened, local clock minus real time at the crash, after the restart, platform clock step]
  it.each([
    ['the computer’s clock was 30 s fast and was corrected', 30_000, 0, 0],
    ['the computer’s clock was 10 min fast and was corrected', 600_000, 0, 0],
    ['the computer’s clock was 10 min slow and was corrected', -600_000, 0, 0],
    ['the platform’s clock moved 10 min ahead', 0, 0, 600_000],
  ])(
    '%s: a lost push and a lost own transfer are found, never sent again',
    async (_, skewBefore, skewAfter, platformStep) => {
      await withJournalDir(async (dir) => {
        // Run 1: the app measures the offset, journals both movements, sends them, loses both answers, dies.
        const before = openJournalDb(dir);
        const first = setup(
          { platformOffsetMs: -skewBefore, transfer: () => Promise.reject(cut('/wallet/transfers')) },
          { db: before },
        );
        first.clock.now = T + skewBefore;
        await expect(first.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' })).rejects.toMatchObject({
          detail: { code: 'OUTCOME_UNKNOWN' },
        });
        await expect(
          first.service.transfer({ currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '10' }),
        ).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
        first.service.stop();
        before.close();

        // Run 2, a minute later: both executed at T on the platform's clock (as it was then).
        const after = openJournalDb(dir);
        const restarted = setup(
          {
            platformOffsetMs: platformStep - skewAfter,
            pushRecords: async () => [pushRecord('P1', Math.floor(T / 1000))],
            futuresBook: async () => [transferEntry(Math.floor(T / 1000))],
          },
          { db: after },
        );
        restarted.clock.now = T + 60_000 + skewAfter;
        await restarted.service.reconcile();
        expect(restarted.calls.push).toBe(0);
        expect(restarted.calls.transfer).toBe(0);
        const states = restarted.service.list().map((m) => [m.kind, m.state]);
        expect(states.sort()).toEqual([
          ['push', 'done'],
          ['transfer', 'done'],
        ]);
        after.close();
      });
    },
  );

  it('within one run, a jump of the platform’s clock ages nothing: a push proven absent is resent, not abandoned', async () => {
    let attempt = 0;
    const s = setup({
      push: async () => {
        attempt++;
        if (attempt === 1) throw cut('/withdrawals/push'); // the answer is lost; it never arrived
        return { id: 'P2', status: 'PENDING' };
      },
    });
    await expect(s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' })).rejects.toMatchObject({
      detail: { code: 'OUTCOME_UNKNOWN' },
    });
    // The platform's clock moves 10 minutes ahead (the client reads it again after REQUEST_EXPIRED),
    // then the settle time passes: "absent" now proves it never arrived.
    s.platform.platformOffsetMs = 600_000;
    await s.syncClock();
    s.clock.now += 25_000;
    await s.service.reconcile();
    expect(s.calls.push).toBe(2);
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: 'P2', attempts: 2 });
  });

  it('across a restart, one proven absent too late says the platform never received it, and which clocks disagree', async () => {
    const s = setup({ withdrawals: async () => [] });
    // Left `unknown` by an earlier run: 11 min ago by the platform's clock, 2 min ago by this computer's.
    s.insert({ kind: 'withdrawal', state: 'unknown', clientId: 'tdLATE', createdAt: s.clock.now - 2 * MINUTE });
    s.db
      .prepare('UPDATE intents SET earliest_platform_ms = ?, sent_platform_ms = ?')
      .run(s.clock.now - 11 * MINUTE, s.clock.now - 11 * MINUTE);
    await s.service.reconcile();
    expect(s.calls.withdraw).toBe(0);
    const [movement] = s.service.list();
    expect(movement).toMatchObject({ state: 'failed', label: 'NEVER_EXECUTED' });
    expect(movement?.message).toMatch(
      /^The platform never received it, and it was confirmed 11 min ago by the platform's clock/,
    );
    expect(movement?.message).toMatch(/by this computer's clock 2 min ago: one of the two clocks moved meanwhile/);
    expect(movement?.message).not.toMatch(/stopped/);
  });

  it('a matching record from just before the intent (where a skewed signing clock could put it) goes to a person', async () => {
    const s = setup({ pushRecords: async () => [pushRecord('P0', Math.floor((T - 40_000) / 1000))] });
    s.clock.now = T;
    await expect(s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' })).rejects.toMatchObject({
      detail: { code: 'OUTCOME_UNKNOWN' },
    });
    // Long past the settle time and many checks later: never sent again, never called done.
    for (let i = 0; i < 3; i++) {
      s.clock.now += MINUTE;
      await s.service.reconcile();
    }
    expect(s.calls.push).toBe(1);
    expect(s.service.list()[0]).toMatchObject({ state: 'unknown', label: AMBIGUOUS_RECORD });
    expect(s.service.list()[0]?.message).toMatch(/cannot tell whether it is this one/);
  });

  it('an identical record older than the signature window does not count: the push proves absent and is resent', async () => {
    const s = setup({ pushRecords: async () => [pushRecord('P0', Math.floor((T - 120_000) / 1000))] });
    s.clock.now = T;
    await expect(s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' })).rejects.toMatchObject({
      detail: { code: 'OUTCOME_UNKNOWN' },
    });
    s.clock.now += MINUTE;
    await s.service.reconcile();
    expect(s.calls.push).toBe(2);
  });

  it('looks records up from the earliest Timestamp a request was signed with (re-signed after REQUEST_EXPIRED)', async () => {
    // The platform's clock had jumped 10 min back: the first signature expired, the client
    // re-measured and signed again with the platform's (earlier) time, and the answer was lost.
    const signedAt = Math.floor((T - 600_000) / 1000);
    const s = setup({
      push: async ({ onSigned }) => {
        onSigned?.(Math.floor(T / 1000));
        onSigned?.(signedAt);
        throw cut('/withdrawals/push');
      },
      pushRecords: async () => [pushRecord('P9', signedAt)],
    });
    s.clock.now = T;
    await s.service.push({ receive_uid: 42, currency: 'USDT', amount: '10' }).catch(() => undefined);
    s.clock.now += MINUTE;
    await s.service.reconcile();
    expect(s.calls.push).toBe(1);
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: 'P9' });
  });
});

describe('a journal the disk refuses to write', () => {
  const withdrawal = { currency: 'USDT', chain: 'TRX', address: 'Taddr', amount: '10' };
  const KEY = 'a1d3c0de-0000-4000-8000-000000000001';

  /**
   * Makes the journal's writes fail as a full disk does (SQLite's own SQLITE_FULL error) for the
   * intent states `refuse` names, and for every other write (a probe) while `full` is on.
   */
  const diskFull = (db: ReturnType<typeof openJournalDb>, refuse: (state: string | null) => boolean) => {
    const disk = { full: true };
    db.function('journal_write', (state: unknown) => {
      if (disk.full && refuse(typeof state === 'string' ? state : null)) {
        throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      }
      return 0;
    });
    db.exec(`
      CREATE TEMP TRIGGER full_insert BEFORE INSERT ON intents BEGIN SELECT journal_write(NEW.state); END;
      CREATE TEMP TRIGGER full_update BEFORE UPDATE ON intents BEGIN SELECT journal_write(NEW.state); END;
      CREATE TEMP TRIGGER full_settings BEFORE INSERT ON settings BEGIN SELECT journal_write(NULL); END;
      CREATE TEMP TRIGGER full_settings_update BEFORE UPDATE ON settings BEGIN SELECT journal_write(NULL); END;`);
    return disk;
  };

  it('full before `sent`: not sent, the person is told it may still go out, nothing new is accepted, a retry joins it', async () => {
    const s = setup({ withdraw: async () => ({ id: 'w1', status: 'REQUEST' }) });
    const disk = diskFull(s.db, (state) => state !== 'prepared');
    const first = s.service.withdraw(withdrawal, { requestKey: KEY });
    await expect(first).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
    await expect(first).rejects.toThrow(/Not sent yet: the disk is full/);
    expect(s.calls.withdraw).toBe(0);
    // Activity shows it, with what is going on.
    const [queued] = s.service.list();
    expect(queued).toMatchObject({ state: 'prepared' });
    expect(queued?.message).toMatch(/goes out by itself once the journal can be written again/);
    expect(s.changes.at(-1)?.message).toMatch(/disk is full/);

    // A new movement is refused, and says why; nothing is journaled or sent.
    await expect(s.service.withdraw({ ...withdrawal, amount: '11' })).rejects.toMatchObject({
      detail: { code: 'JOURNAL_UNAVAILABLE', message: expect.stringMatching(/Nothing was sent: the disk is full/) },
    });
    // The same confirmation again joins the first one.
    await expect(s.service.withdraw(withdrawal, { requestKey: KEY })).rejects.toMatchObject({
      detail: { code: 'OUTCOME_UNKNOWN' },
    });
    expect(s.service.list()).toHaveLength(1);
    expect(s.calls.withdraw).toBe(0);

    // Space comes back: the background check sends it, once.
    disk.full = false;
    await s.service.reconcile();
    await s.service.reconcile();
    expect(s.calls.withdraw).toBe(1);
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: 'w1' });
    await expect(s.service.withdraw({ ...withdrawal, amount: '11' })).resolves.toMatchObject({ state: 'done' });
  });

  it('full after `sent`: the person is told it went out and is followed; it is recorded once space returns, never resent', async () => {
    let executed: { id: string; withdraw_order_id: string; status: string } | undefined;
    const s = setup({
      withdraw: async (body) => {
        executed = { id: 'w1', withdraw_order_id: body.withdraw_order_id, status: 'REQUEST' };
        return executed;
      },
      withdrawals: async () => (executed ? [executed] : []),
    });
    const disk = diskFull(s.db, (state) => state !== 'prepared' && state !== 'sent');
    const sending = s.service.withdraw(withdrawal, { requestKey: KEY });
    await expect(sending).rejects.toMatchObject({ detail: { code: 'OUTCOME_UNKNOWN' } });
    await expect(sending).rejects.toThrow(/platform accepted it \(id w1\).*disk is full/);
    expect(s.service.list()[0]?.message).toMatch(/will not be sent again/);
    await expect(s.service.push({ receive_uid: 42, currency: 'USDT', amount: '1' })).rejects.toMatchObject({
      detail: { code: 'JOURNAL_UNAVAILABLE' },
    });
    // While the disk stays full, the background checks change nothing and send nothing.
    s.clock.now += MINUTE;
    await s.service.reconcile();
    expect(s.calls.withdraw).toBe(1);

    disk.full = false;
    await s.service.reconcile();
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: 'w1' });
    expect(s.service.list()[0]?.message).toBeUndefined();
    expect(s.calls.withdraw).toBe(1);
    expect(s.calls.push).toBe(0);
  });

  it('full when the answer is lost: told it was sent and is followed; settled by lookup, sent once', async () => {
    let attempts = 0;
    const s = setup(
      {
        withdraw: async () => {
          if (++attempts === 1) throw cut('/withdrawals');
          return { id: 'w2', status: 'REQUEST' };
        },
        withdrawals: async () => [],
      },
      { settleMs: 0 },
    );
    const disk = diskFull(s.db, (state) => state !== 'prepared' && state !== 'sent');
    await expect(s.service.withdraw(withdrawal)).rejects.toThrow(/It was sent, but the disk is full/);
    disk.full = false;
    await s.service.reconcile();
    // Proven absent after settling: sent again with the same id (never a second withdrawal).
    expect(s.calls.withdraw).toBe(2);
    expect(s.service.list()).toHaveLength(1);
    expect(s.service.list()[0]).toMatchObject({ state: 'done', platformId: 'w2' });
  });
});

describe('spot orders: journaled by their text, found by it, never sent again', () => {
  const ORDER = {
    currency_pair: 'BTC_USDT',
    side: 'buy' as const,
    type: 'limit' as const,
    amount: '0.01',
    price: '65000',
    time_in_force: 'gtc' as const,
    account: 'spot' as const,
    text: 't-desk-k1',
  };
  const orderNotFound = () => refusal('ORDER_NOT_FOUND', 404, '/spot/orders/t-desk-k1');

  const spotSetup = (spot: { placeOrder: () => Promise<unknown>; getOrder: (text: string) => Promise<unknown> }) => {
    const db = openJournalDb(':memory:');
    const { scheduler, clock, platformClock, syncClock } = testTime({ platformOffsetMs: 0 }, true);
    const calls = { place: 0, get: 0 };
    const api = {
      client: { clock: platformClock, syncClock },
      spot: {
        placeOrder: async () => {
          calls.place++;
          return spot.placeOrder();
        },
        getOrder: async (text: string) => {
          calls.get++;
          return spot.getOrder(text);
        },
      },
    } as unknown as PlatformApi;
    const engine = new MovementEngine({
      db,
      profileId: () => PROFILE,
      platform: () => api,
      onChange: () => {},
      scheduler,
      settleMs: 20_000,
      backgroundMs: 0,
    });
    return { db, clock, calls, engine };
  };

  it('a lost answer is settled by finding the order by its text, with the order as the result', async () => {
    const order = { id: '42', text: 't-desk-k1', status: 'open' };
    const s = spotSetup({ placeOrder: () => Promise.reject(cut('/spot/orders')), getOrder: async () => order });
    const result = await s.engine.execute('spotOrder', ORDER);
    expect(result).toMatchObject({
      state: 'done',
      record: order,
      movement: { clientId: 't-desk-k1', platformId: '42' },
    });
    expect(s.calls).toEqual({ place: 1, get: 1 });
  });

  it('an order proven absent is recorded as not executed and never placed again', async () => {
    const s = spotSetup({
      placeOrder: () => Promise.reject(cut('/spot/orders')),
      getOrder: () => Promise.reject(orderNotFound()),
    });
    const result = await s.engine.execute('spotOrder', ORDER);
    expect(result.state).toBe('unknown');
    if (result.state === 'unknown')
      expect(result.failure.detail).toMatchObject({ code: 'OUTCOME_UNKNOWN', delivery: 'unknown' });
    s.clock.now += MINUTE; // past settleMs: "not found" now proves it never arrived
    await s.engine.reconcile();
    expect(s.engine.list()[0]).toMatchObject({ state: 'failed', label: 'NEVER_EXECUTED' });
    expect(s.calls.place).toBe(1);
  });

  it('a 429 is a refusal (a late order is worse than none), not a wait-and-resend', async () => {
    const s = spotSetup({
      placeOrder: () => Promise.reject(refusal('TOO_MANY_REQUESTS', 429, '/spot/orders')),
      getOrder: () => Promise.reject(orderNotFound()),
    });
    const result = await s.engine.execute('spotOrder', ORDER);
    expect(result).toMatchObject({ state: 'refused', movement: { state: 'failed', label: 'TOO_MANY_REQUESTS' } });
    expect(s.calls).toEqual({ place: 1, get: 0 });
  });

  it('an order journaled but never sent (the app stopped) is not sent later by the background check', async () => {
    const s = spotSetup({ placeOrder: async () => ({ id: '1' }), getOrder: () => Promise.reject(orderNotFound()) });
    s.db
      .prepare(
        `INSERT INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at)
         VALUES ('o1', ?, 'spotOrder', 'prepared', 't-desk-k1', 'BTC', '0.01', ?, 0, ?, ?)`,
      )
      .run(PROFILE, JSON.stringify(ORDER), s.clock.now, s.clock.now);
    await s.engine.reconcile();
    expect(s.engine.get('o1')).toMatchObject({ state: 'failed', label: 'NEVER_EXECUTED' });
    expect(s.calls.place).toBe(0);
  });
});
