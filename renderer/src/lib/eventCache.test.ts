import { describe, expect, it } from 'vitest';
import type { FirmView, SpotBalance } from '../../../shared/contract/balances';
import type { PushRecord, SavedAddress, WithdrawalLookup, WithdrawalRecord } from '../../../shared/contract/funding';
import type { Order } from '../../../shared/contract/trade';
import type { TransferRecord } from '../../../shared/contract/transfers';
import {
  applyMainSpot,
  applyOrders,
  applyPush,
  applyTransferMovement,
  applyWithdrawal,
  applyWithdrawalMovement,
  countWithdrawalTo,
  withMainSpot,
} from './eventCache';
import { movementChanged } from './testing/events';
import { newQueryClient } from './testing/fakeDesk';

const NOW = 1_800_000_000;
const withdrawal = (over: Partial<WithdrawalRecord> = {}): WithdrawalRecord => ({
  id: 'w1',
  withdrawOrderId: 'tdA',
  time: NOW,
  amount: '100',
  currency: 'USDT',
  status: 'REQUEST',
  ...over,
});
const range = { from: NOW - 86_400, to: NOW + 3_600 };

describe('applying event records to the query cache', () => {
  it('a withdrawal record goes into the followed withdrawal and every list that shows it, and no other', () => {
    const client = newQueryClient();
    const older = withdrawal({ id: 'w0', withdrawOrderId: 'tdZ', time: NOW - 60 });
    client.setQueryData(['funding.withdrawals', { range }], [older]);
    client.setQueryData(['funding.withdrawals', { range, currency: 'BTC' }], []);
    client.setQueryData(['funding.withdrawals', { range: { from: 0, to: NOW - 1_000 } }], []);
    client.setQueryData<WithdrawalLookup>(['funding.withdrawal', { withdrawOrderId: 'tdA' }], {
      record: null,
      journal: { state: 'done' },
    });

    applyWithdrawal(client, withdrawal());
    expect(client.getQueryData(['funding.withdrawals', { range }])).toEqual([withdrawal(), older]);
    expect(client.getQueryData(['funding.withdrawals', { range, currency: 'BTC' }])).toEqual([]);
    expect(client.getQueryData(['funding.withdrawals', { range: { from: 0, to: NOW - 1_000 } }])).toEqual([]);
    expect(client.getQueryData(['funding.withdrawal', { withdrawOrderId: 'tdA' }])).toEqual({
      record: withdrawal(),
      journal: { state: 'done' },
    });

    // Its next status replaces it in place.
    applyWithdrawal(client, withdrawal({ status: 'DONE', fee: '1', txid: '0xabc' }));
    const rows = client.getQueryData<WithdrawalRecord[]>(['funding.withdrawals', { range }]);
    expect(rows?.map((r) => [r.id, r.status])).toEqual([
      ['w1', 'DONE'],
      ['w0', 'REQUEST'],
    ]);
    // Nothing is created for queries no screen made.
    expect(client.getQueryData(['funding.withdrawal', { id: 'w1' }])).toBeUndefined();
  });

  it('a withdrawal movement sets the journal state and the record it stands for, keeping a platform record', () => {
    const client = newQueryClient();
    const key = ['funding.withdrawal', { withdrawOrderId: 'tdA' }];
    applyWithdrawalMovement(client, movementChanged({ clientId: 'tdA', state: 'sent' }));
    expect(client.getQueryData(key)).toEqual({ record: null, journal: { state: 'sent' } });
    applyWithdrawalMovement(
      client,
      movementChanged({
        clientId: 'tdA',
        state: 'done',
        platformId: 'w1',
        platformStatus: 'REQUEST',
        params: { chain: 'TRX', address: 'TXYZ' },
        createdAt: NOW * 1000,
        amount: '100',
      }),
    );
    expect(client.getQueryData<WithdrawalLookup>(key)?.record).toMatchObject({
      id: 'w1',
      withdrawOrderId: 'tdA',
      status: 'REQUEST',
      chain: 'TRX',
      address: 'TXYZ',
      amount: '100',
    });
    // The platform's own record (fee, txid) is not replaced by the journal's view.
    applyWithdrawal(client, withdrawal({ status: 'PEND', fee: '1' }));
    applyWithdrawalMovement(client, movementChanged({ clientId: 'tdA', state: 'done', platformId: 'w1' }));
    expect(client.getQueryData<WithdrawalLookup>(key)?.record).toMatchObject({ status: 'PEND', fee: '1' });
    // Other kinds are not withdrawals.
    applyWithdrawalMovement(client, movementChanged({ clientId: 'tdB', kind: 'push' }));
    expect(client.getQueryData(['funding.withdrawal', { withdrawOrderId: 'tdB' }])).toBeUndefined();
  });

  it('a push record goes only into lists of its direction', () => {
    const client = newQueryClient();
    const push: PushRecord = {
      id: 'p1',
      pushUid: 1,
      receiveUid: 2,
      currency: 'USDT',
      amount: '5',
      createTime: NOW,
      status: 'CREATING',
      transactionType: 'withdraw',
    };
    client.setQueryData(['funding.pushes', { transactionType: 'withdraw', range }], []);
    client.setQueryData(['funding.pushes', { transactionType: 'deposit', range }], []);
    applyPush(client, push);
    expect(client.getQueryData(['funding.pushes', { transactionType: 'withdraw', range }])).toEqual([push]);
    expect(client.getQueryData(['funding.pushes', { transactionType: 'deposit', range }])).toEqual([]);
  });

  it('a sent withdrawal counts one more use of its saved address', () => {
    const client = newQueryClient();
    const saved = (address: string, tag?: string): SavedAddress => ({
      currency: 'USDT',
      chain: 'TON',
      address,
      ...(tag ? { tag } : {}),
      verified: true,
      previousWithdrawals: 0,
    });
    client.setQueryData(
      ['funding.savedAddresses', { currency: 'USDT', chain: 'TON' }],
      [saved('UQ1', '77'), saved('UQ1', '78')],
    );
    countWithdrawalTo(client, { currency: 'USDT', chain: 'TON', address: 'UQ1', memo: '78' });
    expect(
      client
        .getQueryData<SavedAddress[]>(['funding.savedAddresses', { currency: 'USDT', chain: 'TON' }])
        ?.map((a) => a.previousWithdrawals),
    ).toEqual([0, 1]);
  });

  it('a transfer movement becomes its history row, named from the cached sub-accounts, within the period and filter', () => {
    const client = newQueryClient();
    const createdAt = NOW * 1000;
    client.setQueryData(['subAccounts.list', {}], {
      accounts: [{ userId: 1000002, loginName: 'desk-ops' }],
    });
    const platformRow: TransferRecord = {
      id: 'p-cid-9-0',
      time: createdAt - 5_000,
      kind: 'mainSub',
      from: 'Main · spot',
      to: 'desk-ops (UID 1000002) · spot',
      currency: 'USDT',
      amount: '1',
      state: 'done',
      stateText: 'Done',
      clientOrderId: 'cid-9',
      source: 'platform',
    };
    client.setQueryData(['transfers.history', { from: NOW - 600, to: NOW + 60 }], { records: [platformRow] });
    client.setQueryData(['transfers.history', { from: NOW - 600, to: NOW + 60, subUserId: 1000003 }], {
      records: [],
    });
    const movement = movementChanged({
      id: 'm1',
      kind: 'subAccountTransfer',
      state: 'sent',
      clientId: 'cid-1',
      amount: '7',
      createdAt,
      params: { sub_account: '1000002', sub_account_type: 'spot', direction: 'to', currency: 'USDT', amount: '7' },
    });
    applyTransferMovement(client, movement);
    const rows = () =>
      client.getQueryData<{ records: TransferRecord[] }>(['transfers.history', { from: NOW - 600, to: NOW + 60 }])
        ?.records;
    expect(rows()?.[0]).toMatchObject({
      id: 'j-m1',
      kind: 'mainSub',
      to: 'desk-ops (UID 1000002) · spot',
      state: 'checking',
      source: 'journal',
    });
    applyTransferMovement(client, { ...movement, state: 'done' });
    expect(rows()?.map((r) => [r.id, r.stateText])).toEqual([
      ['j-m1', 'Done'],
      ['p-cid-9-0', 'Done'],
    ]);
    // Another sub-account's history does not list it; a transfer the platform lists keeps its row.
    expect(
      client.getQueryData<{ records: TransferRecord[] }>([
        'transfers.history',
        { from: NOW - 600, to: NOW + 60, subUserId: 1000003 },
      ])?.records,
    ).toEqual([]);
    applyTransferMovement(client, { ...movement, id: 'm9', clientId: 'cid-9', state: 'done' });
    expect(rows()?.map((r) => r.id)).toEqual(['j-m1', 'p-cid-9-0']);
  });

  it('orders as they stand replace, join or leave the open orders of their pair', () => {
    const client = newQueryClient();
    const order = (over: Partial<Order>): Order =>
      ({
        id: '1',
        pair: 'BTC_USDT',
        status: 'open',
        price: '1000',
        amount: '0.01',
        left: '0.01',
        updateTimeMs: 1,
        ...over,
      }) as Order;
    client.setQueryData(['trade.openOrders', { pair: 'BTC_USDT' }], [order({ id: '1' })]);
    client.setQueryData(['trade.openOrders', { pair: 'ETH_USDT' }], []);
    client.setQueryData(['trade.openOrders', {}], [order({ id: '1' })]);

    applyOrders(client, [order({ id: '2' })]);
    expect(client.getQueryData<Order[]>(['trade.openOrders', { pair: 'BTC_USDT' }])?.map((o) => o.id)).toEqual([
      '2',
      '1',
    ]);
    expect(client.getQueryData(['trade.openOrders', { pair: 'ETH_USDT' }])).toEqual([]);
    applyOrders(client, [order({ id: '1', price: '990' })]);
    expect(client.getQueryData<Order[]>(['trade.openOrders', {}])?.find((o) => o.id === '1')?.price).toBe('990');
    applyOrders(client, [order({ id: '2', status: 'cancelled' })]);
    expect(client.getQueryData<Order[]>(['trade.openOrders', { pair: 'BTC_USDT' }])?.map((o) => o.id)).toEqual(['1']);
  });
});

describe("the main account's spot balances into the firm-wide view", () => {
  const spot = (currency: string, total: string): SpotBalance => ({ currency, available: total, locked: '0', total });
  /** Main holds ETH on spot and BTC in cross margin; a sub-account holds BTC and XYZ (no price). */
  const view = (): FirmView => ({
    quote: 'BTC',
    fetchedAt: 1,
    prices: { BTC: '1', ETH: '0.05' },
    accounts: [
      {
        uid: '1',
        label: 'Main account',
        role: 'main',
        holdings: [
          { account: 'crossMargin', currency: 'BTC', amount: '1', value: '1' },
          { account: 'spot', currency: 'ETH', amount: '10', value: '0.5' },
        ],
        value: '1.5',
        errors: {},
      },
      {
        uid: '2',
        label: 'ops',
        role: 'sub',
        holdings: [
          { account: 'spot', currency: 'BTC', amount: '2', value: '2' },
          { account: 'spot', currency: 'XYZ', amount: '5', value: null },
        ],
        value: '2',
        errors: {},
      },
    ],
    currencies: [
      { currency: 'BTC', amount: '3', value: '3' },
      { currency: 'ETH', amount: '10', value: '0.5' },
      { currency: 'XYZ', amount: '5', value: null },
    ],
    total: '3.5',
    unpriced: ['XYZ'],
    incomplete: false,
    basis: 'Valued in BTC.',
  });

  it('replaces the main spot holdings and recomputes every total that includes them', () => {
    const before = view();
    const after = withMainSpot(before, [spot('BTC', '0.25'), spot('ETH', '0'), spot('XYZ', '1')]);
    expect(after?.accounts[0]).toEqual({
      uid: '1',
      label: 'Main account',
      role: 'main',
      holdings: [
        { account: 'crossMargin', currency: 'BTC', amount: '1', value: '1' },
        { account: 'spot', currency: 'BTC', amount: '0.25', value: '0.25' },
        { account: 'spot', currency: 'XYZ', amount: '1', value: null },
      ],
      value: '1.25',
      errors: {},
    });
    expect(after?.accounts[1]).toBe(before.accounts[1]);
    // ETH is held nowhere any more: out of the currencies and the prices.
    expect(after?.currencies).toEqual([
      { currency: 'BTC', amount: '3.25', value: '3.25' },
      { currency: 'XYZ', amount: '6', value: null },
    ]);
    expect(after?.prices).toEqual({ BTC: '1' });
    expect(after).toMatchObject({ total: '3.25', unpriced: ['XYZ'], incomplete: false });
  });

  it('a main spot that could not be read before makes the view complete again', () => {
    const unread = view();
    const main = unread.accounts[0]!;
    unread.accounts[0] = { ...main, holdings: [main.holdings[0]!], value: '1', errors: { spot: 'Could not be read.' } };
    const after = withMainSpot({ ...unread, incomplete: true }, [spot('BTC', '1')]);
    expect(after?.accounts[0]).toMatchObject({ value: '2', errors: {} });
    expect(after).toMatchObject({ total: '4', incomplete: false });
  });

  it('is the same view when nothing changed, and cannot be patched for a currency it has no price for', () => {
    const before = view();
    expect(withMainSpot(before, [spot('ETH', '10.0')])).toBe(before);
    expect(withMainSpot(before, [spot('ETH', '10'), spot('SOL', '3')])).toBeUndefined();
  });

  it('patches every loaded view and marks stale only the one it cannot patch', () => {
    const client = newQueryClient();
    const btc = view();
    const usdt = { ...view(), quote: 'USDT' as const, prices: { BTC: '50000' } };
    client.setQueryData(['balances.firm', { quote: 'BTC' }], btc);
    client.setQueryData(['balances.firm', { quote: 'USDT' }], usdt);
    applyMainSpot(client, [spot('ETH', '20')]);
    expect(client.getQueryData<FirmView>(['balances.firm', { quote: 'BTC' }])?.total).toBe('4');
    expect(client.getQueryState(['balances.firm', { quote: 'BTC' }])?.isInvalidated).toBe(false);
    // No ETH price in that one: read again, not guessed.
    expect(client.getQueryData(['balances.firm', { quote: 'USDT' }])).toBe(usdt);
    expect(client.getQueryState(['balances.firm', { quote: 'USDT' }])?.isInvalidated).toBe(true);
  });
});
