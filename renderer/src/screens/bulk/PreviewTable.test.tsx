import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BatchPreview, PreviewRow } from '../../../../shared/contract/bulk';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { PreviewTable, pacedRows } from './PreviewTable';

// happy-dom lays nothing out: a 1000 × 600 px box, so the rows (a VirtualTable) are drawn.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ width: 1000, height: 600 }),
  );
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(1000);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const withdrawal = (row: number, address = ADDRESS): PreviewRow => ({
  row,
  input: { type: 'withdrawal', currency: 'USDT', amount: '10', chain: 'TRX', address, reference: `INV-${row}` },
  raw: {},
  kind: 'withdrawal',
  currency: 'USDT',
  amount: '10',
  fee: '1',
  from: 'main spot',
  to: address,
  errors: [],
  warnings: [],
});
const transfer: PreviewRow = {
  row: 3,
  input: {
    type: 'transfer',
    currency: 'USDT',
    amount: '5',
    from: { owner: 'main', account: 'spot' },
    to: { owner: 10000003, account: 'spot' },
  },
  raw: {},
  kind: 'transfer',
  currency: 'USDT',
  amount: '5',
  from: 'main spot',
  to: 'Sub 10000003 spot',
  errors: [],
  warnings: [],
};

describe('the batch preview', () => {
  it('says on each row the one-a-minute pace to one address will delay', () => {
    const waits = pacedRows([
      withdrawal(1),
      withdrawal(2),
      withdrawal(4, 'TOther000000000000000000000000000'),
      withdrawal(5),
    ]);
    expect([...waits]).toEqual([
      [2, 1],
      [5, 2],
    ]);
  });

  it('names destinations as the address book and the sub-accounts do, with the reference', async () => {
    installFakeDesk({
      'subAccounts.list': () => ({
        accounts: [{ userId: 10000003, loginName: 'desk_ops', state: 'normal', type: 'normal' }],
      }),
      'funding.savedAddresses': () => [
        {
          currency: 'USDT',
          chain: 'TRX',
          address: ADDRESS,
          name: 'OTC desk (TRC20)',
          verified: true,
          previousWithdrawals: 2,
        },
      ],
    });
    const preview: BatchPreview = {
      rows: [withdrawal(1), withdrawal(2), transfer],
      fileProblems: [],
      totals: [{ source: 'main spot', currency: 'USDT', total: '27', available: '1000', rows: 3 }],
      errorCount: 0,
      warningCount: 0,
    };
    renderWithQuery(<PreviewTable preview={preview} />);
    const rows = screen.getByTestId('bulk-preview-rows');
    await waitFor(() => expect(rows.textContent).toContain('OTC desk (TRC20)'));
    await waitFor(() => expect(rows.textContent).toContain('desk_ops (UID 10000003) spot'));
    expect(rows.textContent).not.toContain('Sub 10000003');
    expect(rows.textContent).toContain('INV-2');
    expect(screen.getByTestId('bulk-row-problems-2').textContent).toContain('one withdrawal a minute to one address');
    expect(screen.getByTestId('bulk-preview-summary').textContent).toContain('1 row waits for the one-a-minute pace');
    expect(screen.getByTestId('bulk-preview-totals').textContent).toContain('Total, fees included');
  });
});
