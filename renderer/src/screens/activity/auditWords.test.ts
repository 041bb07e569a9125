import { describe, expect, it } from 'vitest';
import { ControlKind } from '../../../../shared/contract/policies';
import { auditWords } from './auditWords';
import { KIND_WORDS } from './words';

const entry = (action: string, params: unknown) => ({ action, params: JSON.stringify(params) });

describe('auditWords', () => {
  it('says a platform write in business terms, never as a method and a path', () => {
    expect(
      auditWords(entry('POST /withdrawals/push', { body: { receive_uid: 10000005, currency: 'USDT', amount: '1' } })),
    ).toBe('UID transfer 1 USDT → UID 10000005');
    expect(
      auditWords(
        entry('POST /withdrawals', {
          body: { currency: 'USDT', amount: '1200', chain: 'TRX', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
        }),
      ),
    ).toBe('Withdrawal 1,200 USDT to TQn9Y2…cbLSE (TRX)');
    expect(
      auditWords(
        entry('POST /wallet/sub_account_transfers', {
          body: { sub_account: '10000003', direction: 'to', currency: 'USDT', amount: '5000.5' },
        }),
      ),
    ).toBe('Transfer 5,000.5 USDT from main to sub-account UID 10000003');
    expect(auditWords(entry('POST /sub_accounts/10000003/lock', {}))).toBe('Freeze sub-account UID 10000003');
    expect(auditWords(entry('DELETE /spot/orders/7712001', {}))).toBe('Cancel order 7712001');
  });

  it('says the app’s own actions in words, and keeps an unknown action as recorded', () => {
    expect(auditWords(entry('approvals.request', { summary: 'Withdraw 100 USDT to OTC desk' }))).toBe(
      'Approval requested: Withdraw 100 USDT to OTC desk',
    );
    expect(auditWords(entry('policies.set', {}))).toBe('Policy changed');
    expect(auditWords({ action: 'something.new', params: 'not json' })).toBe('something.new');
  });

  it('says every control change and every journaled movement in words, never as its internal name', () => {
    for (const kind of ControlKind.options) expect(auditWords(entry(kind, {}))).not.toBe(kind);
    for (const kind of Object.keys(KIND_WORDS)) {
      expect(auditWords(entry(`movements.${kind}`, { origin: 'screen' }))).not.toMatch(/^movements\./);
    }
    expect(
      auditWords(
        entry('subAccounts.create', { changes: [{ label: 'Name', before: '—', after: 'desk_mm' }], approvedBy: 'Bea' }),
      ),
    ).toBe('Sub-account created, approved by Bea');
    expect(auditWords(entry('movements.subAccountTransfer', { origin: 'screen' }))).toBe(
      'Main ↔ sub-account transfer recorded',
    );
  });
});
