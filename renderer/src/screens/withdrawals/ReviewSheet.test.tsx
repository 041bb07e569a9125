import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WithdrawInput } from '../../../../shared/contract/funding';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { nothingMoved } from './confirmation';
import { ReviewSheet } from './ReviewSheet';

afterEach(cleanup);

const INPUT = { currency: 'USDT', chain: 'TRX', address: 'TXYZ1234567890abcdefGHIJKLMNOPQRS', amount: '60' };
const CHAIN = {
  chain: 'TRX',
  nameEn: 'Tron',
  nameCn: 'Tron',
  disabled: false,
  depositDisabled: false,
  withdrawDisabled: false,
  usesMemo: false,
};

describe('the review sheet, one intent one approval', () => {
  it('a withdrawal queued for an approver closes the review: Send cannot queue a second item', async () => {
    const desk = installFakeDesk({
      'funding.reviewPolicy': () => ({ typedConfirmAbove: { USDT: '1000' } }),
      'funding.withdraw': () => {
        throw {
          code: 'AWAITING_APPROVAL',
          message: 'Waiting for approval (ap_1): Worth 60 USDT, above 50 USDT.',
          advice: 'An approver other than Mia approves or rejects it in Approvals.',
        };
      },
    });
    const onQueued = vi.fn();
    const onClose = vi.fn();
    renderWithQuery(
      <ReviewSheet
        input={INPUT}
        chain={CHAIN}
        quote={{ fee: '1', net: '60', debit: '61' }}
        saved={undefined}
        onClose={onClose}
        onSent={() => {}}
        onQueued={onQueued}
      />,
    );
    const send = await screen.findByTestId('withdraw-send');
    await userEvent.click(send);
    await vi.waitFor(() => expect(onQueued).toHaveBeenCalledTimes(1));
    expect(onQueued.mock.calls[0]?.[0]).toContain('Waiting for approval (ap_1)');
    // Whatever happens next (the form closes the sheet), Send is not armed for a second item.
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(send);
    const calls = desk.callsOf('funding.withdraw') as WithdrawInput[];
    expect(calls).toHaveLength(1);
  });

  it('a queued movement keeps its request key: nothing moved yet, but a new key would be a second intent', () => {
    expect(nothingMoved({ code: 'AWAITING_APPROVAL', delivery: 'not_sent' })).toBe(false);
    expect(nothingMoved({ code: 'AWAITING_APPROVAL' })).toBe(false);
    // Any other refusal where nothing moved still gives a deliberate new click a new key.
    expect(nothingMoved({ code: 'POLICY', delivery: 'not_sent' })).toBe(true);
  });
});
