import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../server';
import { api, type Credentials, controlAnswer, mainCreds, startTestSandbox } from '../testing/harness';

let sb: SandboxHandle;
type Err = { label: string; message: string };
type Rec = Record<string, unknown>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 3 });
});
afterAll(() => sb.close());

interface User extends Credentials {
  user_id: number;
}

async function newUser(extra: Rec = {}): Promise<User> {
  return (await controlAnswer<User>(sb, 'POST', '/users', extra)).body;
}
const credit = (u: User, currency: string, amount: string) =>
  controlAnswer(sb, 'POST', '/balances', { user_id: u.user_id, account: 'spot', currency, amount });
const save = (u: User, currency: string, chain: string, address: string, extra: Rec = {}) =>
  controlAnswer(sb, 'POST', '/saved_addresses', { user_id: u.user_id, currency, chain, address, ...extra });
const advance = (seconds: number) => controlAnswer(sb, 'POST', '/advance', { seconds });
const spot = async (u: Credentials, currency: string) =>
  (await api<{ available: string }[]>(sb, u, 'GET', `/spot/accounts?currency=${currency}`)).body[0]?.available ?? '0';
/** Every POST /withdrawals is 1 per 3 s per user: step past the window first. */
async function withdraw<T = Rec>(u: Credentials, body: Rec) {
  await advance(3);
  return api<T>(sb, u, 'POST', '/withdrawals', body);
}
const record = async (u: Credentials, id: string) =>
  (await api<Rec[]>(sb, u, 'GET', `/wallet/withdrawals?withdraw_id=${id}`)).body[0] as Rec;

describe('POST /withdrawals checks', () => {
  it('refuses, in order, every invalid request without moving funds', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '1000');
    await credit(u, 'BTC', '200');
    await save(u, 'USDT', 'TRX', 'TKnownAddress1');
    await save(u, 'USDT', 'TRX', 'TUnverified', { verified: false });
    await save(u, 'USDT', 'TON', 'UQTonAddress');
    const ok = { currency: 'USDT', chain: 'TRX', address: 'TKnownAddress1', amount: '20' };
    const cases: [Rec, string][] = [
      [{ ...ok, currency: 'NOPE' }, 'INVALID_CURRENCY'],
      [{ ...ok, currency: 'DUST', chain: 'ETH' }, 'INVALID_CURRENCY'],
      [{ ...ok, chain: 'BTC' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, chain: 'SOL' }, 'API_WITHDRAW_DISABLED'],
      [{ ...ok, amount: '20.1234567' }, 'INVALID_PRECISION'],
      [{ ...ok, amount: 'abc' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, address: undefined }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, chain: 'TON', address: 'UQTonAddress' }, 'MISSING_REQUIRED_PARAM'],
      [{ ...ok, amount: '5' }, 'AMOUNT_TOO_LITTLE'],
      [{ currency: 'BTC', chain: 'BTC', address: 'bc1qexternal', amount: '101' }, 'WITHDRAWAL_OVER_LIMIT'],
      [{ ...ok, address: 'TUnverified' }, 'ADDRESS_NOT_USED'],
      [{ ...ok, address: 'TNeverSeen' }, 'ADDRESS_NOT_USED'],
      [{ ...ok, amount: '1000' }, 'BALANCE_NOT_ENOUGH'], // 1000 + 1 fee > 1000
      [{ ...ok, withdraw_order_id: 'bad id!' }, 'INVALID_PARAM_VALUE'],
      [{ ...ok, withdraw_order_id: 'x'.repeat(33) }, 'INVALID_PARAM_VALUE'],
    ];
    for (const [body, label] of cases) {
      const res = await withdraw<Err>(u, body);
      expect([res.status, res.body.label, body]).toEqual([400, label, body]);
    }
    expect(await spot(u, 'USDT')).toBe('1000');
    expect((await api<Rec[]>(sb, u, 'GET', '/wallet/withdrawals')).body).toEqual([]);
  });

  it('executes a withdraw_order_id once; TOO_FAST to the same address within a minute', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '1000');
    await save(u, 'USDT', 'TRX', 'TOnceOnly');
    const body = { currency: 'USDT', chain: 'TRX', address: 'TOnceOnly', amount: '100', withdraw_order_id: 'wd-once' };
    const first = await withdraw(u, body);
    expect(first.body).toMatchObject({ status: 'REQUEST', withdraw_order_id: 'wd-once', amount: '100', chain: 'TRX' });
    const repeat = await withdraw<Err>(u, body);
    expect(repeat.body.label).toBe('DUPLICATE_REQUEST');
    const fast = await withdraw<Err>(u, { ...body, withdraw_order_id: 'wd-twice' });
    expect(fast.body.label).toBe('TOO_FAST');
    expect(await spot(u, 'USDT')).toBe('899');
    const listed = await api<Rec[]>(sb, u, 'GET', '/wallet/withdrawals?withdraw_order_id=wd-once');
    expect(listed.body.length).toBe(1);
  });

  it('enforces the daily limit across withdrawals', async () => {
    const u = await newUser();
    await credit(u, 'ETH', '6000');
    for (let i = 0; i < 6; i += 1) await save(u, 'ETH', 'ETH', `0xdaily${i}`);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await withdraw(u, { currency: 'ETH', chain: 'ETH', address: `0xdaily${i}`, amount: '1000' })).status,
      ).toBe(200);
    }
    const over = await withdraw<Err>(u, { currency: 'ETH', chain: 'ETH', address: '0xdaily5', amount: '1' });
    expect(over.body.label).toBe('WITHDRAWAL_OVER_LIMIT');
    const status = await api<Rec[]>(sb, u, 'GET', '/wallet/withdraw_status?currency=ETH');
    expect(status.body[0]?.withdraw_day_limit_remain).toBe('0');
  });
});

describe('withdrawal pipelines', () => {
  it('normal: REQUEST → VERIFY → PROCES → EXTPEND (txid) → DONE (block number, final time) in 18 s', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '500');
    await save(u, 'USDT', 'TRX', 'TNormalPath');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TNormalPath',
      amount: '100',
    });
    expect(res.body.id).toMatch(/^w\d+$/);
    expect(await spot(u, 'USDT')).toBe('399');
    const seen: string[] = [];
    const stepSeconds = [3, 2, 3, 10, 0];
    for (let i = 0; i < 5; i += 1) {
      const r = await record(u, res.body.id);
      seen.push(r.status as string);
      // A Tron transaction id: 64 hex digits, no 0x (as Tronscan writes it).
      if (r.status === 'EXTPEND') expect(r.txid).toMatch(/^[0-9a-f]{64}$/);
      if (r.status === 'DONE')
        expect(r).toMatchObject({ fee: '1', fail_reason: '', block_number: expect.stringMatching(/^\d+$/) });
      if (r.status === 'DONE') expect(r.timestamp2).not.toBe('');
      await advance(stepSeconds[i]!);
    }
    expect(seen).toEqual(['REQUEST', 'VERIFY', 'PROCES', 'EXTPEND', 'DONE']);
  });

  it('review: an amount at or above the threshold waits in MANUAL', async () => {
    const u = await newUser();
    await credit(u, 'BTC', '20');
    await save(u, 'BTC', 'BTC', 'bc1qreview');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'BTC',
      chain: 'BTC',
      address: 'bc1qreview',
      amount: '10',
    });
    await advance(3);
    expect((await record(u, res.body.id)).status).toBe('MANUAL');
    await advance(60);
    expect((await record(u, res.body.id)).status).toBe('PEND');
  });

  it('failure: an address ending in FAIL fails on chain, then is cancelled and refunded', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '500');
    await save(u, 'USDT', 'TRX', 'TTestAddressFAIL');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TTestAddressFAIL',
      amount: '100',
    });
    await advance(18);
    expect((await record(u, res.body.id)).status).toBe('FAIL');
    expect(await spot(u, 'USDT')).toBe('399');
    await advance(5);
    const final = await record(u, res.body.id);
    expect(final).toMatchObject({ status: 'CANCEL', fail_reason: expect.stringContaining('failed') });
    expect(final.timestamp2).not.toBe('');
    expect(await spot(u, 'USDT')).toBe('500');
  });

  it('rejection: an address ending in REJECT is rejected after review and refunded', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '500');
    await save(u, 'USDT', 'TRX', 'TTestAddressREJECT');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TTestAddressREJECT',
      amount: '100',
    });
    await advance(3);
    expect((await record(u, res.body.id)).status).toBe('REVIEW');
    await advance(30);
    expect((await record(u, res.body.id)).status).toBe('REJECT');
    expect(await spot(u, 'USDT')).toBe('500');
  });

  it('face verification: an amount of 5 review thresholds or more waits in FVERIFY, then MANUAL', async () => {
    const u = await newUser();
    await credit(u, 'BTC', '60');
    await save(u, 'BTC', 'BTC', 'bc1qfaceverify');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'BTC',
      chain: 'BTC',
      address: 'bc1qfaceverify',
      amount: '50',
    });
    await advance(3);
    expect((await record(u, res.body.id)).status).toBe('FVERIFY');
    await advance(120);
    expect((await record(u, res.body.id)).status).toBe('MANUAL');
    await advance(75);
    expect((await record(u, res.body.id)).status).toBe('DONE');
  });

  it('test addresses: INVALID is refunded, BCODE ends paid as a code, DMOVE and LOCKED are held then sent', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '1000');
    const send = async (address: string) => {
      await save(u, 'USDT', 'TRX', address);
      return (await withdraw<{ id: string }>(u, { currency: 'USDT', chain: 'TRX', address, amount: '100' })).body.id;
    };
    const invalid = await send('TTestAddressINVALID');
    const bcode = await send('TTestAddressBCODE');
    const dmove = await send('TTestAddressDMOVE');
    const locked = await send('TTestAddressLOCKED');
    await advance(3); // withdraw() waits 3 s before each send: every record has left REQUEST
    const statuses = async () =>
      Promise.all([invalid, bcode, dmove, locked].map(async (id) => (await record(u, id)).status));
    expect(await statuses()).toEqual(['INVALID', 'BCODE', 'DMOVE', 'LOCKED']);
    expect(await record(u, invalid)).toMatchObject({ fail_reason: expect.stringContaining('Invalid') });
    expect((await record(u, bcode)).timestamp2).not.toBe('');
    expect(await spot(u, 'USDT')).toBe('697'); // 4 × (100 + 1 fee) sent, the INVALID one refunded
    // DMOVE is a review state the user may still cancel; the wallet's own LOCK is not.
    expect((await api(sb, u, 'DELETE', `/withdrawals/${dmove}`)).status).toBe(202);
    expect((await api<Err>(sb, u, 'DELETE', `/withdrawals/${locked}`)).body.label).toBe(
      'INVALID_WITHDRAW_CANCEL_STATUS',
    );
    await advance(30);
    expect(await statuses()).toEqual(['INVALID', 'BCODE', 'CANCEL', 'PROCES']);
    await advance(15);
    expect((await record(u, locked)).status).toBe('DONE');
    expect(await spot(u, 'USDT')).toBe('798');
  });

  it('cancellation: 202 CANCELPEND then CANCEL with refund; not after it left review', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '500');
    await save(u, 'USDT', 'TRX', 'TCancelMe');
    await save(u, 'USDT', 'TRX', 'TTooLate');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TCancelMe',
      amount: '100',
    });
    const cancel = await api<Rec>(sb, u, 'DELETE', `/withdrawals/${res.body.id}`);
    expect(cancel.status).toBe(202);
    expect(cancel.body).toMatchObject({ id: res.body.id, status: 'CANCELPEND', block_number: '' });
    await advance(2);
    expect(await record(u, res.body.id)).toMatchObject({ status: 'CANCEL', fail_reason: expect.any(String) });
    expect(await spot(u, 'USDT')).toBe('500');
    const again = await api<Err>(sb, u, 'DELETE', `/withdrawals/${res.body.id}`);
    expect(again.body.label).toBe('INVALID_WITHDRAW_CANCEL_STATUS');
    const late = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TTooLate',
      amount: '50',
    });
    await advance(5); // REQUEST 3 s, VERIFY 2 s: now PROCES, past the point of no return
    expect((await record(u, late.body.id)).status).toBe('PROCES');
    expect((await api<Err>(sb, u, 'DELETE', `/withdrawals/${late.body.id}`)).body.label).toBe(
      'INVALID_WITHDRAW_CANCEL_STATUS',
    );
    expect((await api<Err>(sb, u, 'DELETE', '/withdrawals/w1')).body.label).toBe('INVALID_WITHDRAW_ID');
    expect((await api<Err>(sb, mainCreds(sb), 'DELETE', `/withdrawals/${late.body.id}`)).body.label).toBe(
      'INVALID_WITHDRAW_ID',
    );
  });

  it('to another sandbox user: no fee, credited to them as a deposit', async () => {
    const alice = await newUser();
    const bob = await newUser();
    await credit(alice, 'USDT', '500');
    const addr = await api<{ multichain_addresses: { chain: string; address: string; payment_id: string }[] }>(
      sb,
      bob,
      'GET',
      '/wallet/deposit_address?currency=USDT',
    );
    const ton = addr.body.multichain_addresses.find((a) => a.chain === 'TON')!;
    await save(alice, 'USDT', 'TON', ton.address, { tag: ton.payment_id });
    const res = await withdraw<{ id: string }>(alice, {
      currency: 'USDT',
      chain: 'TON',
      address: ton.address,
      memo: ton.payment_id,
      amount: '100',
    });
    expect(await spot(alice, 'USDT')).toBe('400');
    await advance(2);
    expect(await record(alice, res.body.id)).toMatchObject({ status: 'DONE', fee: '0', type: 'internal' });
    expect(await spot(bob, 'USDT')).toBe('100');
    const deposits = await api<Rec[]>(sb, bob, 'GET', '/wallet/deposits');
    expect(deposits.body[0]).toMatchObject({ amount: '100', status: 'DONE', chain: 'TON', memo: ton.payment_id });
  });

  it('a single record can be stepped through the control plane', async () => {
    const u = await newUser();
    await credit(u, 'USDT', '500');
    await save(u, 'USDT', 'TRX', 'TStepMe');
    const res = await withdraw<{ id: string }>(u, {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TStepMe',
      amount: '100',
    });
    const step = await controlAnswer<Rec>(sb, 'POST', '/pipelines/step', { kind: 'withdrawal', id: res.body.id });
    expect(step.body).toMatchObject({ status: 'VERIFY' });
    expect((await controlAnswer<Err>(sb, 'POST', '/pipelines/step', { kind: 'withdrawal', id: 'w0' })).body.label).toBe(
      'NOT_FOUND',
    );
  });
});

describe('pipeline robustness', () => {
  it('parks a record whose step fails instead of looping or stopping the others', async () => {
    const u = await newUser();
    const now = sb.ctx.clock.now();
    sb.ctx.db
      .prepare(
        `INSERT INTO withdrawals (seq, id, user_id, currency, chain, address, amount, fee, status, timestamp, route, next_at)
         VALUES (900000, 'w99999999', ?, 'USDT', 'TRX', 'TBroken', 'not-a-number', '1', 'FAIL', ?, 'fail', ?)`,
      )
      .run(u.user_id, now, now);
    const dep = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: u.user_id,
      currency: 'USDT',
      chain: 'TRX',
      amount: '50',
    });
    expect((await advance(60)).status).toBe(200);
    const parked = sb.ctx.db.prepare("SELECT status, next_at FROM withdrawals WHERE id = 'w99999999'").get();
    expect(parked).toEqual({ status: 'FAIL', next_at: null });
    expect(await spot(u, 'USDT')).toBe('50'); // the deposit, and no refund from the broken record
    const deposits = await api<Rec[]>(sb, u, 'GET', '/wallet/deposits');
    expect(deposits.body.find((d) => d.id === dep.body.id)?.status).toBe('DONE');
  });
});

describe('deposit pipelines (control deposits)', () => {
  it('PEND → TRACK → DEP_CREDITED (credited, not yet withdrawable) → DONE', async () => {
    const u = await newUser();
    await save(u, 'USDT', 'TRX', 'TLockedFunds');
    const dep = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: u.user_id,
      currency: 'USDT',
      chain: 'TRX',
      amount: '300',
    });
    expect(dep.body).toMatchObject({ status: 'PEND', amount: '300', id: expect.stringMatching(/^d\d+$/) });
    await advance(3);
    expect((await api<Rec[]>(sb, u, 'GET', '/wallet/deposits')).body[0]?.status).toBe('TRACK');
    expect(await spot(u, 'USDT')).toBe('0');
    await advance(10);
    expect((await api<Rec[]>(sb, u, 'GET', '/wallet/deposits')).body[0]?.status).toBe('DEP_CREDITED');
    expect(await spot(u, 'USDT')).toBe('300');
    const locked = await withdraw<Err>(u, { currency: 'USDT', chain: 'TRX', address: 'TLockedFunds', amount: '100' });
    expect(locked.body.label).toBe('BALANCE_NOT_ENOUGH');
    await advance(10);
    expect((await api<Rec[]>(sb, u, 'GET', '/wallet/deposits')).body[0]?.status).toBe('DONE');
    expect((await withdraw(u, { currency: 'USDT', chain: 'TRX', address: 'TLockedFunds', amount: '100' })).status).toBe(
      200,
    );
  });

  it('review above the threshold, BLOCKED when flagged, INVALID below the minimum', async () => {
    const u = await newUser();
    const review = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: u.user_id,
      currency: 'BTC',
      chain: 'BTC',
      amount: '12',
    });
    const blocked = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: u.user_id,
      currency: 'ETH',
      chain: 'ETH',
      amount: '1',
      blocked: true,
    });
    const small = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: u.user_id,
      currency: 'USDT',
      chain: 'TRX',
      amount: '0.5',
    });
    expect([review.body.status, blocked.body.status, small.body.status]).toEqual(['REVIEW', 'REVIEW', 'PEND']);
    await advance(120);
    const byId = Object.fromEntries(
      (await api<Rec[]>(sb, u, 'GET', '/wallet/deposits')).body.map((d) => [d.id, d.status]),
    );
    expect(byId[review.body.id as string]).toBe('DONE');
    expect(byId[blocked.body.id as string]).toBe('BLOCKED');
    expect(byId[small.body.id as string]).toBe('INVALID');
    expect(await spot(u, 'BTC')).toBe('12');
    expect(await spot(u, 'ETH')).toBe('0');
    expect(await spot(u, 'USDT')).toBe('0');
  });
});

describe('UID push', () => {
  it('CREATING → PENDING → RECEIVING → RECEIVED, visible to both sides', async () => {
    const a = await newUser();
    const b = await newUser();
    await credit(a, 'USDT', '100');
    const res = await api<{ id: string }>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: b.user_id,
      currency: 'USDT',
      amount: '40',
    });
    expect(res.body.id).toMatch(/^\d+$/);
    expect(await spot(a, 'USDT')).toBe('60');
    await advance(2);
    const pending = (await api<Rec[]>(sb, a, 'GET', '/wallet/push')).body[0];
    expect(pending).toMatchObject({
      status: 'PENDING',
      message: expect.any(String),
      transaction_type: 'withdraw',
      receive_uid: b.user_id,
    });
    await advance(13);
    const received = (await api<Rec[]>(sb, b, 'GET', '/wallet/push?transaction_type=deposit')).body[0];
    expect(received).toMatchObject({ status: 'RECEIVED', push_uid: a.user_id, amount: '40' });
    expect(await spot(b, 'USDT')).toBe('40');
    expect((await api<Rec[]>(sb, a, 'GET', `/wallet/push?id=${res.body.id}`)).body.length).toBe(1);
  });

  it('a push the receiver has not accepted can be cancelled (control plane): CANCELLING → CANCELLED, refunded', async () => {
    const a = await newUser();
    const b = await newUser();
    await credit(a, 'USDT', '100');
    const res = await api<{ id: string }>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: b.user_id,
      currency: 'USDT',
      amount: '40',
    });
    await advance(2);
    const cancel = await controlAnswer<Rec>(sb, 'POST', '/pushes/cancel', { id: Number(res.body.id) });
    expect(cancel.body).toMatchObject({ id: res.body.id, status: 'CANCELLING' });
    expect((await api<Rec[]>(sb, a, 'GET', `/wallet/push?id=${res.body.id}`)).body[0]?.status).toBe('CANCELLING');
    await advance(3);
    expect((await api<Rec[]>(sb, a, 'GET', `/wallet/push?id=${res.body.id}`)).body[0]?.status).toBe('CANCELLED');
    expect(await spot(a, 'USDT')).toBe('100');
    expect(await spot(b, 'USDT')).toBe('0');
    const again = await controlAnswer<Err>(sb, 'POST', '/pushes/cancel', { id: Number(res.body.id) });
    expect([again.status, again.body.label]).toEqual([400, 'INVALID_PARAM_VALUE']);
    expect((await controlAnswer<Err>(sb, 'POST', '/pushes/cancel', { id: 999_999 })).status).toBe(404);
  });

  it('a receiver that refuses gets REFUSED and the sender is refunded; bad receivers and the 10 s limit', async () => {
    const a = await newUser();
    const refuser = await newUser({ refuse_push: true });
    await credit(a, 'USDT', '100');
    await api(sb, a, 'POST', '/withdrawals/push', { receive_uid: refuser.user_id, currency: 'USDT', amount: '40' });
    const limited = await api<Err>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: refuser.user_id,
      currency: 'USDT',
      amount: '1',
    });
    expect([limited.status, limited.body.label]).toEqual([429, 'TOO_MANY_REQUESTS']);
    await advance(15);
    expect((await api<Rec[]>(sb, a, 'GET', '/wallet/push')).body[0]?.status).toBe('REFUSED');
    expect(await spot(a, 'USDT')).toBe('100');
    await advance(10);
    const toSub = await api<Err>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: 10_000_002,
      currency: 'USDT',
      amount: '1',
    });
    expect(toSub.body.label).toBe('INVALID_PARAM_VALUE');
    await advance(10);
    const toSelf = await api<Err>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: a.user_id,
      currency: 'USDT',
      amount: '1',
    });
    expect(toSelf.body.label).toBe('INVALID_PARAM_VALUE');
    await advance(10);
    const broke = await api<Err>(sb, a, 'POST', '/withdrawals/push', {
      receive_uid: refuser.user_id,
      currency: 'USDT',
      amount: '101',
    });
    expect(broke.body.label).toBe('BALANCE_NOT_ENOUGH');
  });
});
