import { describe, expect, it } from 'vitest';
import { SubAccountTransferRecord } from '../../shared/platform/api/wallet';
import type { Movement } from '../movements/types';
import { journalRecord, mergeHistory, outcomeOf, platformRecord, subAccountsOf } from './records';

const movement = (patch: Partial<Movement>): Movement => ({
  id: 'm1',
  profileId: 'p',
  kind: 'subAccountTransfer',
  state: 'done',
  clientId: 'td-abc',
  currency: 'USDT',
  amount: '10',
  params: { sub_account: '7', sub_account_type: 'spot', direction: 'to', currency: 'USDT', amount: '10' },
  attempts: 1,
  createdAt: 1_000,
  updatedAt: 1_000,
  operator: '',
  ...patch,
});
const name = (uid: string) => `desk (UID ${uid})`;

describe('transfer outcome', () => {
  it('reports done with the platform id', () => {
    expect(outcomeOf(movement({ platformId: '55' }))).toEqual({ id: 'm1', state: 'done', txId: '55' });
  });

  it('reports every unsettled journal state as checking, never as failed or done', () => {
    for (const state of ['prepared', 'sent', 'unknown'] as const) {
      const outcome = outcomeOf(movement({ state }));
      expect(outcome.state).toBe('checking');
      expect(outcome.message).toContain('Do not send it again');
    }
  });

  it('reports a refusal with its label and a transfer proven never executed as safe to resend', () => {
    expect(outcomeOf(movement({ state: 'failed', label: 'SUB_ACCOUNT_LOCKED', message: 'frozen' }))).toMatchObject({
      state: 'failed',
      label: 'SUB_ACCOUNT_LOCKED',
      message: 'frozen',
    });
    expect(outcomeOf(movement({ state: 'failed', label: 'NEVER_EXECUTED' })).message).toContain('never received');
  });
});

describe('history rows', () => {
  it('describes main → sub, sub → main, own and sub → sub transfers in plain words', () => {
    expect(journalRecord(movement({}), name)).toMatchObject({
      from: 'Main · spot',
      to: 'desk (UID 7) · spot',
      kind: 'mainSub',
    });
    expect(
      journalRecord(movement({ params: { sub_account: '7', sub_account_type: 'futures', direction: 'from' } }), name),
    ).toMatchObject({ from: 'desk (UID 7) · perpetual futures', to: 'Main · spot' });
    expect(
      journalRecord(
        movement({ kind: 'transfer', clientId: '', params: { from: 'spot', to: 'margin', currency_pair: 'BTC_USDT' } }),
        name,
      ),
    ).toMatchObject({ kind: 'own', from: 'Main · spot (BTC_USDT)', to: 'Main · isolated margin (BTC_USDT)' });
    expect(
      journalRecord(
        movement({
          kind: 'subToSubTransfer',
          params: {
            sub_account_from: '7',
            sub_account_from_type: 'spot',
            sub_account_to: '8',
            sub_account_to_type: 'delivery',
          },
        }),
        name,
      ),
    ).toMatchObject({ kind: 'subSub', from: 'desk (UID 7) · spot', to: 'desk (UID 8) · delivery futures' });
  });

  it('marks journal rows still being checked and failed ones with their label', () => {
    expect(journalRecord(movement({ state: 'unknown' }), name)).toMatchObject({
      state: 'checking',
      stateText: 'Unknown — checking',
    });
    expect(journalRecord(movement({ state: 'failed', label: 'SUB_ACCOUNT_LOCKED' }), name)).toMatchObject({
      state: 'failed',
      stateText: 'Failed · SUB_ACCOUNT_LOCKED',
    });
  });

  it('lists the sub-accounts a transfer touches', () => {
    expect(subAccountsOf(movement({}))).toEqual(['7']);
    expect(subAccountsOf(movement({ params: { sub_account_from: '7', sub_account_to: 8 } }))).toEqual(['7', '8']);
  });

  it('shows a journaled transfer once when the platform lists it, newest first', () => {
    const record = SubAccountTransferRecord.parse({
      timest: '1700000000',
      uid: '1',
      sub_account: '7',
      sub_account_type: 'spot',
      currency: 'USDT',
      amount: '10',
      direction: 'to',
      source: 'api',
      client_order_id: 'td-abc',
      status: 'success',
    });
    const fromPlatform = platformRecord(record, 0, name);
    expect(fromPlatform).toMatchObject({ time: 1_700_000_000_000, state: 'done', source: 'platform' });
    const journal = [
      journalRecord(movement({}), name)!,
      journalRecord(movement({ id: 'm2', clientId: 'td-other', createdAt: 1_800_000_000_000 }), name)!,
    ];
    const merged = mergeHistory([fromPlatform], journal);
    expect(merged.map((r) => r.id)).toEqual(['j-m2', fromPlatform.id]);
  });
});
