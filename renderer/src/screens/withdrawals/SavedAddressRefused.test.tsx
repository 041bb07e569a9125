import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SavedAddress, WithdrawRules } from '../../../../shared/contract/funding';
import { VERIFY_ADVICE } from '../../../../shared/platform/savedAddresses';
import { installFakeDesk } from '../../lib/testing/fakeDesk';
import { setupUser } from '../../lib/testing/user';
import { useWithdrawDraft, WithdrawForm } from './WithdrawForm';

const rules: WithdrawRules = {
  currency: 'USDT',
  feeFixed: '1',
  feePercent: '0',
  feeFixedOnChains: { TRX: '1' },
  feePercentOnChains: {},
  minAmount: '10',
};
const saved = (name: string, address: string, verified: boolean, previousWithdrawals: number): SavedAddress => ({
  currency: 'USDT',
  chain: 'TRX',
  address,
  name,
  verified,
  previousWithdrawals,
});
const ADDRESSES = [
  saved('OTC desk', 'TVerified00000000000000000000000001', true, 3),
  saved('New supplier', 'TUnverified000000000000000000000002', false, 0),
  saved('Old partner', 'TUnverifiedButUsed0000000000000003', false, 2),
];

let withdrawCalls = 0;
beforeEach(() => {
  withdrawCalls = 0;
  useWithdrawDraft.getState().reset();
  installFakeDesk({
    'funding.withdrawRules': () => [rules],
    'balances.spot': () => [{ currency: 'USDT', available: '1000', locked: '0', total: '1000' }],
    'funding.chains': () => [
      {
        chain: 'TRX',
        nameEn: 'TRON',
        nameCn: '',
        disabled: false,
        depositDisabled: false,
        withdrawDisabled: false,
        decimals: 6,
        usesMemo: false,
      },
    ],
    'funding.savedAddresses': () => ADDRESSES,
    'funding.reviewPolicy': () => ({ typedConfirmAbove: {} }),
    'funding.withdraw': () => {
      withdrawCalls += 1;
      return { outcome: 'accepted', withdrawOrderId: 'td1' };
    },
  });
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});
afterEach(cleanup);

const renderForm = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <WithdrawForm onSent={() => {}} />
    </QueryClientProvider>,
  );

const choose = async (user: ReturnType<typeof userEvent.setup>, address: RegExp) => {
  await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
  await user.click(await screen.findByRole('radio', { name: /^TRX/ }));
  await user.click(await screen.findByRole('radio', { name: address }));
};

describe('a saved address the platform refuses', () => {
  it('is marked in the list with why and what to do', async () => {
    const user = setupUser();
    renderForm();
    await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
    await user.click(await screen.findByRole('radio', { name: /^TRX/ }));
    const refused = await screen.findByTestId(`saved-address-${ADDRESSES[1]!.address}`);
    expect(refused.getAttribute('data-refused')).toBe('true');
    expect(refused.textContent).toContain('Not verified — cannot be used');
    expect(refused.textContent).toContain(VERIFY_ADVICE);
    // The address in the list is grouped without spaces in its text; it cannot be chosen.
    expect(refused.querySelector('.long-id')?.textContent).toBe(ADDRESSES[1]!.address);
    expect(refused.querySelector('input')).toHaveProperty('disabled', true);
    // Verified, or used before: accepted by the platform, not marked.
    expect(screen.getByTestId(`saved-address-${ADDRESSES[0]!.address}`).getAttribute('data-refused')).toBeNull();
    expect(screen.getByTestId(`saved-address-${ADDRESSES[2]!.address}`).getAttribute('data-refused')).toBeNull();
  });

  it('cannot be chosen: its choice is disabled, so Review stays closed', async () => {
    const user = setupUser();
    renderForm();
    await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
    await user.click(await screen.findByRole('radio', { name: /^TRX/ }));
    const refused = await screen.findByRole('radio', { name: /New supplier/ });
    expect(refused).toHaveProperty('disabled', true);
    await user.click(refused);
    expect(refused).toHaveProperty('checked', false);
    const review = screen.getByTestId('withdraw-review');
    expect(review).toHaveProperty('disabled', true);
    expect(screen.getByTestId('withdraw-review-why').textContent).toBe('Choose a saved address.');
    expect(withdrawCalls).toBe(0);
  });

  it('choosing a verified one instead enables the review again', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /New supplier/);
    expect(screen.getByTestId('withdraw-review')).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('radio', { name: /OTC desk/ }));
    expect(screen.queryByTestId('saved-address-error')).toBeNull();
    await user.type(screen.getByLabelText('Amount'), '20');
    const review = screen.getByTestId('withdraw-review');
    expect(review).toHaveProperty('disabled', false);
    await user.click(review);
    const sheet = await screen.findByTestId('review-sheet');
    await waitFor(() => expect(within(sheet).getByTestId('review-address').textContent).toBe(ADDRESSES[0]!.address));
  });
});
