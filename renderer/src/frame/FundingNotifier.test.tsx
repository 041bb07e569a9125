import { act, cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsolidatedRow } from '../../../shared/contract/balances';
import { installFakeDesk, newQueryClient, renderWithQuery } from '../lib/testing/fakeDesk';
import { FundingNotifier } from './FundingNotifier';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const row = (uid: string, role: 'main' | 'sub', usdt: string): ConsolidatedRow => ({
  uid,
  label: uid,
  role,
  cells: { spot: [{ currency: 'USDT', amount: usdt }], isolatedMargin: [], perpetual: [], crossMargin: [] },
});

const deposit = (status: string, previousStatus: string) => ({
  profileId: 'local-sandbox',
  id: 'd1',
  currency: 'USDT',
  amount: '100',
  status,
  previousStatus,
  record: { id: 'd1', time: 1_700_000_000, amount: '100', currency: 'USDT', status },
});

describe('FundingNotifier', () => {
  it('a deposit moving through its states updates only the main row of the all-accounts view, once', async () => {
    vi.useFakeTimers();
    const desk = installFakeDesk({ 'balances.mainAccount': () => row('1', 'main', '1100') });
    const client = newQueryClient();
    const subs = Array.from({ length: 1_000 }, (_, i) => row(String(i + 2), 'sub', '10'));
    client.setQueryData(['balances.consolidated', {}], [row('1', 'main', '1000'), ...subs]);
    renderWithQuery(<FundingNotifier />, client);
    for (const [status, previous] of [
      ['PEND', 'NEW'],
      ['CONFIRMING', 'PEND'],
      ['DONE', 'CONFIRMING'],
    ] as const) {
      act(() => desk.emit('funding.depositChanged', deposit(status, previous)));
      await act(() => vi.advanceTimersByTimeAsync(500));
    }
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    // One read of the main account, never the whole matrix again.
    expect(desk.callsOf('balances.mainAccount')).toHaveLength(1);
    expect(desk.callsOf('balances.consolidated')).toHaveLength(0);
    const rows = client.getQueryData<ConsolidatedRow[]>(['balances.consolidated', {}]);
    expect(rows?.[0]?.cells.spot[0]?.amount).toBe('1100');
    expect(rows?.[1]).toBe(subs[0]); // the sub-account rows are the same objects: nothing re-renders
    expect(rows).toHaveLength(1_001);
  });
});
