import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrencyChainInfo, SavedAddress, WithdrawRules } from '../../../../shared/contract/funding';
import { type Answers, installFakeDesk } from '../../lib/testing/fakeDesk';
import { enterText, setupUser } from '../../lib/testing/user';
import { useWithdrawDraft, WithdrawForm } from './WithdrawForm';

const rules: WithdrawRules = {
  currency: 'USDT',
  feeFixed: '1',
  feePercent: '0',
  feeFixedOnChains: { TRX: '1', TON: '0.5' },
  feePercentOnChains: {},
  minAmount: '10',
  maxPerWithdrawal: '1000000',
  dayLimit: '2000000',
  dayLimitRemaining: '2000000',
};
const chain = (name: string, extra: Partial<CurrencyChainInfo> = {}): CurrencyChainInfo => ({
  chain: name,
  nameEn: name,
  nameCn: '',
  disabled: false,
  depositDisabled: false,
  withdrawDisabled: false,
  decimals: 6,
  usesMemo: false,
  ...extra,
});
const addresses: Record<string, SavedAddress[]> = {
  TRX: [
    {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TXYZ0123456789abcdef',
      name: 'OTC desk',
      verified: true,
      previousWithdrawals: 3,
    },
  ],
  TON: [
    {
      currency: 'USDT',
      chain: 'TON',
      address: 'UQ0123456789',
      name: 'Exchange B',
      tag: '7734001',
      verified: true,
      previousWithdrawals: 0,
    },
  ],
  // One exchange deposit address, a memo per customer: two destinations.
  XRP: [
    {
      currency: 'USDT',
      chain: 'XRP',
      address: 'rSharedExchange01',
      name: 'Exchange C (desk A)',
      tag: '111',
      verified: true,
      previousWithdrawals: 2,
    },
    {
      currency: 'USDT',
      chain: 'XRP',
      address: 'rSharedExchange01',
      name: 'Exchange C (desk B)',
      tag: '222',
      verified: true,
      previousWithdrawals: 0,
    },
  ],
};

/** A stand-in for main: answers reads from fixed data and records every withdraw call. */
const withdrawCalls: unknown[] = [];
/** How main answers funding.withdraw (a test may hold the answer back). */
let withdrawAnswer: () => unknown = () => ({ outcome: 'accepted', withdrawOrderId: 'td1' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const answers: Answers = {
  'funding.withdrawRules': () => [rules],
  'balances.spot': () => [{ currency: 'USDT', available: '250000', locked: '0', total: '250000' }],
  'funding.chains': () => [
    chain('TRX'),
    chain('TON', { usesMemo: true }),
    chain('XRP', { usesMemo: true }),
    chain('SOL', { withdrawDisabled: true }),
  ],
  'funding.savedAddresses': (input) => addresses[input.chain as string] ?? [],
  'funding.reviewPolicy': () => ({ typedConfirmAbove: {} }),
  'funding.withdraw': (input) => {
    withdrawCalls.push(input);
    return withdrawAnswer();
  },
};

beforeEach(() => {
  withdrawCalls.length = 0;
  withdrawAnswer = () => ({ outcome: 'accepted', withdrawOrderId: 'td1' });
  useWithdrawDraft.getState().reset();
  installFakeDesk(answers);
  // happy-dom's <dialog> lacks showModal.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});
afterEach(cleanup);

const renderForm = () => {
  const onSent = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <WithdrawForm onSent={onSent} />
    </QueryClientProvider>,
  );
  return onSent;
};

/**
 * A choice of one group (Network, Saved address), looked for inside that group: a query by role and
 * name works out the name of every radio it walks, reading each label's styles for what is hidden,
 * and the saved addresses' labels are long. Scoped, a network is found without reading the addresses.
 */
const findRadio = async (group: 'Network' | 'Saved address', name: RegExp) =>
  within(await screen.findByRole('radiogroup', { name: group })).findByRole('radio', { name });
const getRadio = (group: 'Network' | 'Saved address', name: RegExp) =>
  within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });

const choose = async (user: ReturnType<typeof userEvent.setup>, network: RegExp, address: RegExp) => {
  await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
  await user.click(await findRadio('Network', network));
  await user.click(await findRadio('Saved address', address));
};

describe('withdrawal form', () => {
  it('starts from what can be sent and the last withdrawals, and a balance picks the currency', async () => {
    const user = setupUser();
    installFakeDesk({
      ...answers,
      'funding.withdrawals': () => [
        { id: 'w1', time: 1_795_000_000, amount: '1200', currency: 'USDT', status: 'DONE', chain: 'TRX' },
      ],
    });
    renderForm();
    const start = await screen.findByTestId('withdraw-start');
    await waitFor(() => expect(start.textContent).toContain('250,000 USDT'));
    await waitFor(() => expect(screen.getByTestId('withdraw-recent').textContent).toContain('1,200 USDT'));
    await user.click(within(start).getByRole('button', { name: 'Withdraw USDT' }));
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).value).toBe('USDT');
    expect(screen.queryByTestId('withdraw-start')).toBeNull();
  });

  it('finds a saved address by name, address or memo in a long address book', async () => {
    const user = setupUser();
    const many = Array.from({ length: 7 }, (_, i) => ({
      currency: 'USDT',
      chain: 'TRX',
      address: `TAddress${i}0000000000000000000000${i}`,
      name: `Supplier ${i}`,
      verified: true,
      previousWithdrawals: 1,
    }));
    installFakeDesk({ ...answers, 'funding.savedAddresses': () => many });
    renderForm();
    await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
    await user.click(await findRadio('Network', /^TRX/));
    await findRadio('Saved address', /Supplier 6/);
    await enterText(screen.getByTestId('address-search'), 'supplier 3');
    const group = screen.getByRole('radiogroup', { name: 'Saved address' });
    expect(within(group).getAllByRole('radio')).toHaveLength(1);
    expect(within(group).getByRole('radio', { name: /Supplier 3/ })).toBeTruthy();
  });

  it('warns before Send that the amount waits for approval above the policy’s threshold', async () => {
    const user = setupUser();
    installFakeDesk({
      ...answers,
      'policies.get': () => ({
        profileId: 'p',
        policy: {
          limits: {},
          usdtLimits: {},
          allowlist: { required: false, coolingOffHours: 24, entries: [] },
          approval: { aboveUsdt: '50', newDestination: false, anyPush: false, expiresHours: 24 },
        },
      }),
    });
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '40');
    expect(screen.queryByTestId('withdraw-needs-approval')).toBeNull();
    await user.type(screen.getByLabelText('Amount'), '0');
    const warning = await screen.findByTestId('withdraw-needs-approval');
    expect(warning.textContent).toContain('Above 50 USDT.');
    expect(warning.textContent).toContain('wait for approval');
  });

  it('shows a suspended network, explained and not selectable', async () => {
    const user = setupUser();
    renderForm();
    await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
    const sol = await findRadio('Network', /^SOL/);
    expect(sol).toHaveProperty('disabled', true);
    expect(screen.getByTestId('chain-SOL').textContent).toContain('suspended');
  });

  it('stops a too-large amount before anything is sent', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await enterText(screen.getByLabelText('Amount'), '300000');
    expect(await screen.findByText(/Not enough USDT: this needs 300,001 USDT/)).toBeTruthy();
    // Review cannot open: once at the amount; the line by the button only says where to look.
    expect(screen.getByTestId('withdraw-review')).toHaveProperty('disabled', true);
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.getAllByText(/Not enough USDT/)).toHaveLength(1);
    expect(screen.getByTestId('withdraw-review-why').textContent).toBe('Check the amount above.');
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(withdrawCalls).toHaveLength(0);
  });

  it('stops a missing memo on a memo network', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^TON/, /Exchange B/);
    expect(screen.getByTestId('memo-warning')).toBeTruthy();
    const memo = screen.getByLabelText('Memo / tag') as HTMLInputElement;
    expect(memo.value).toBe('7734001');
    await user.clear(memo);
    await user.type(screen.getByLabelText('Amount'), '20');
    expect(screen.getByTestId('withdraw-review')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('withdraw-review-why').textContent).toBe('Check the memo / tag above.');
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(withdrawCalls).toHaveLength(0);
  });

  it('offers a test amount (the minimum) for an address never used; it only fills the field and the review stays', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^TON/, /Exchange B/);
    expect(screen.getByTestId('test-amount-first').textContent).toMatch(/Always send a small amount first/);
    await user.click(screen.getByRole('button', { name: /Send a small test amount first \(10 USDT\)/ }));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('10');
    expect(screen.getByTestId('withdraw-debit').textContent).toBe('10.5 USDT');
    expect(withdrawCalls).toHaveLength(0);
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).getByTestId('first-time-badge')).toBeTruthy();
    expect(within(sheet).getByTestId('withdraw-send')).toHaveProperty('disabled', true);
    expect(withdrawCalls).toHaveLength(0);
  });

  it('does not offer a test amount for an address used before', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    expect(screen.getByLabelText('Amount')).toBeTruthy();
    expect(screen.queryByTestId('test-amount-first')).toBeNull();
    expect(screen.queryByTestId('test-amount-fill')).toBeNull();
  });

  it('tells apart two saved entries with the same address and different memos', async () => {
    const user = setupUser();
    const onSent = renderForm();
    await choose(user, /^XRP/, /desk B/);
    expect(getRadio('Saved address', /desk B/)).toHaveProperty('checked', true);
    expect(getRadio('Saved address', /desk A/)).toHaveProperty('checked', false);
    expect((screen.getByLabelText('Memo / tag') as HTMLInputElement).value).toBe('222');
    // desk A was used before, desk B (same address, its own memo) never: the test amount is offered.
    expect(screen.getByTestId('test-amount-first')).toBeTruthy();
    await user.type(screen.getByLabelText('Amount'), '20');
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).getByText('Saved as “Exchange C (desk B)”')).toBeTruthy();
    expect(within(sheet).queryByText(/desk A/)).toBeNull();
    expect(within(sheet).getByTestId('review-memo').textContent).toBe('222');
    expect(within(sheet).getByTestId('first-time-badge')).toBeTruthy();
    await user.type(await within(sheet).findByLabelText(/Type the amount/), '20');
    await user.click(within(sheet).getByTestId('withdraw-send'));
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(withdrawCalls).toEqual([
      {
        currency: 'USDT',
        chain: 'XRP',
        address: 'rSharedExchange01',
        memo: '222',
        amount: '20',
        requestKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it('reads "1,000.50" as typed, shows 1,000.5 USDT in the review and sends the canonical 1000.5', async () => {
    const user = setupUser();
    const onSent = renderForm();
    await choose(user, /^XRP/, /desk B/);
    await enterText(screen.getByLabelText('Amount'), '1,000.50');
    expect(screen.getByTestId('withdraw-net').textContent).toBe('1,000.5 USDT');
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).getByTestId('review-amount').textContent).toBe('1,000.5 USDT');
    await user.type(await within(sheet).findByLabelText(/Type the amount \(1,000.5 USDT\)/), '1 000.5');
    await user.click(within(sheet).getByTestId('withdraw-send'));
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(withdrawCalls).toEqual([expect.objectContaining({ amount: '1000.5' })]);
  });

  it('refuses an amount that could be read two ways, with one message', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^XRP/, /desk B/);
    await user.type(screen.getByLabelText('Amount'), '1,5');
    expect(await screen.findByText(/commas or spaces only between thousands/)).toBeTruthy();
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.queryByTestId('review-sheet')).toBeNull();
  });

  it('follows the memo: the entry used before shows no first-time badge, a memo typed over it does', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^XRP/, /desk A/);
    expect(getRadio('Saved address', /desk B/)).toHaveProperty('checked', false);
    expect(screen.queryByTestId('test-amount-first')).toBeNull();
    await user.type(screen.getByLabelText('Amount'), '20');
    await user.click(screen.getByTestId('withdraw-review'));
    let sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).getByText('Saved as “Exchange C (desk A)”')).toBeTruthy();
    expect(within(sheet).queryByTestId('first-time-badge')).toBeNull();
    expect(within(sheet).getByText('Used 2× before')).toBeTruthy();
    await user.click(within(sheet).getByRole('button', { name: 'Back' }));

    // A memo no saved entry has is a new destination: nothing chosen, no saved name, first time.
    const memo = screen.getByLabelText('Memo / tag');
    await user.clear(memo);
    await user.type(memo, '333');
    expect(getRadio('Saved address', /desk A/)).toHaveProperty('checked', false);
    expect(getRadio('Saved address', /desk B/)).toHaveProperty('checked', false);
    expect(screen.getByTestId('test-amount-first')).toBeTruthy();
    await user.click(screen.getByTestId('withdraw-review'));
    sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).queryByText(/Saved as/)).toBeNull();
    expect(within(sheet).getByTestId('first-time-badge')).toBeTruthy();
    expect(within(sheet).getByTestId('review-memo').textContent).toBe('333');
  });

  it('reviews fee and net, asks for the typed amount, and sends exactly once', async () => {
    const user = setupUser();
    const onSent = renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '100');
    expect(screen.getByTestId('withdraw-net').textContent).toBe('100 USDT');
    expect(screen.getByTestId('withdraw-debit').textContent).toBe('101 USDT');
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    expect(within(sheet).getByTestId('review-address').textContent).toBe('TXYZ0123456789abcdef');
    expect(within(sheet).getByTestId('review-fee').textContent).toBe('1 USDT');
    const send = within(sheet).getByTestId('withdraw-send');
    await waitFor(() => expect(within(sheet).getByLabelText(/Type the amount/)).toBeTruthy());
    expect(send).toHaveProperty('disabled', true);
    await user.type(within(sheet).getByLabelText(/Type the amount/), '100');
    expect(send).toHaveProperty('disabled', false);
    await user.dblClick(send);
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(withdrawCalls).toEqual([
      {
        currency: 'USDT',
        chain: 'TRX',
        address: 'TXYZ0123456789abcdef',
        amount: '100',
        requestKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it('a double click while the first call is in flight sends one call; reopening the review makes a new key', async () => {
    let answer: (value: unknown) => void = () => {};
    withdrawAnswer = () => new Promise((resolve) => (answer = resolve));
    const user = setupUser();
    const onSent = renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '100');
    await user.click(screen.getByTestId('withdraw-review'));
    let sheet = await screen.findByTestId('review-sheet');
    await user.type(await within(sheet).findByLabelText(/Type the amount/), '100');
    const send = within(sheet).getByTestId('withdraw-send');
    // Both clicks land before React can re-render the button as busy.
    fireEvent.click(send);
    fireEvent.click(send);
    await waitFor(() => expect(withdrawCalls).toHaveLength(1));
    answer({ outcome: 'accepted', withdrawOrderId: 'td1' });
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(1));
    expect(withdrawCalls).toHaveLength(1);

    // A new withdrawal (even of the same amount) is a new confirmation with its own key.
    withdrawAnswer = () => ({ outcome: 'accepted', withdrawOrderId: 'td2' });
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '100');
    await user.click(screen.getByTestId('withdraw-review'));
    sheet = await screen.findByTestId('review-sheet');
    await user.type(await within(sheet).findByLabelText(/Type the amount/), '100');
    await user.click(within(sheet).getByTestId('withdraw-send'));
    await waitFor(() => expect(onSent).toHaveBeenCalledTimes(2));
    const [first, second] = withdrawCalls as { requestKey: string }[];
    expect(second?.requestKey).toMatch(UUID);
    expect(second?.requestKey).not.toBe(first?.requestKey);
  });
});

describe('withdrawal form: one way for errors', () => {
  const toReview = async (user: ReturnType<typeof userEvent.setup>) => {
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '100');
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    await user.type(await within(sheet).findByLabelText(/Type the amount/), '100');
    await user.click(within(sheet).getByTestId('withdraw-send'));
  };

  it('main’s refusal naming the amount: shown once, at the amount (the review closes); no banner', async () => {
    const user = setupUser();
    withdrawAnswer = () => {
      throw {
        code: 'INVALID_INPUT',
        message: 'The request was not valid; nothing was sent.',
        advice: 'Check the values you entered and try again.',
        fields: { amount: 'Above the day’s remaining limit.' },
        delivery: 'not_sent',
      };
    };
    await toReview(user);
    await waitFor(() => expect(screen.getAllByText('Above the day’s remaining limit.')).toHaveLength(1));
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('error-notice')).toBeNull();
    expect(screen.queryByText('Check the values you entered and try again.')).toBeNull();
    // Editing the amount clears main's refusal of it.
    await user.type(screen.getByLabelText('Amount'), '0');
    expect(screen.queryByText('Above the day’s remaining limit.')).toBeNull();
  });

  it('a currency refusal never shows under the amount', async () => {
    const user = setupUser();
    withdrawAnswer = () => {
      throw {
        code: 'INVALID_INPUT',
        message: 'not valid',
        fields: { currency: 'Enter a currency code', requestKey: 'A money movement needs the request key' },
        delivery: 'not_sent',
      };
    };
    await toReview(user);
    const sheet = await screen.findByTestId('review-sheet');
    await waitFor(() => expect(within(sheet).getAllByTestId('error-notice')).toHaveLength(1));
    const amountField = screen.getByLabelText('Amount').closest('.field') as HTMLElement;
    expect(amountField.textContent).not.toContain('Enter a currency code');
    // The banner says only what is left (the request key), not the currency again.
    expect(within(sheet).getByTestId('error-notice').textContent).not.toContain('Enter a currency code');
    expect(screen.getAllByText('Enter a currency code')).toHaveLength(1);
  });

  it('a platform refusal about the balance: ONE banner in the review, the amount highlighted', async () => {
    const user = setupUser();
    withdrawAnswer = () => {
      throw {
        code: 'PLATFORM',
        message: 'Not enough balance in the account.',
        label: 'BALANCE_NOT_ENOUGH',
        advice: 'Check the values you entered and try again.',
        delivery: 'not_sent',
      };
    };
    await toReview(user);
    const sheet = await screen.findByTestId('review-sheet');
    await waitFor(() => expect(screen.getAllByTestId('error-notice')).toHaveLength(1));
    expect(screen.getAllByText('Not enough balance in the account.')).toHaveLength(1);
    expect(within(sheet).getByTestId('error-highlighted').textContent).toContain('Amount');
    await user.click(within(sheet).getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
  });

  it('a refusal that names no field is one banner with main’s advice as is, nothing highlighted', async () => {
    const user = setupUser();
    withdrawAnswer = () => {
      throw {
        code: 'PLATFORM',
        message: 'A value in the request was not accepted by the platform.',
        label: 'INVALID_PARAM_VALUE',
        advice: 'Check the values you entered and try again.',
        delivery: 'not_sent',
      };
    };
    await toReview(user);
    await waitFor(() => expect(screen.getAllByTestId('error-notice')).toHaveLength(1));
    expect(screen.getByText('Check the values you entered and try again.')).toBeTruthy();
    expect(screen.queryByText(/highlighted/i)).toBeNull();
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  });
});

describe('withdrawal form: dependent fields and the draft', () => {
  it('Review opens only when it can succeed: until then the next choice is asked for beside it', async () => {
    const user = setupUser();
    renderForm();
    await screen.findByLabelText('Currency');
    const review = screen.getByTestId('withdraw-review');
    const why = () => screen.getByTestId('withdraw-review-why').textContent;
    expect(review).toHaveProperty('disabled', true);
    expect(why()).toBe('Choose a currency.');
    await user.selectOptions(screen.getByLabelText('Currency'), 'USDT');
    await waitFor(() => expect(why()).toBe('Choose a network.'));
    await user.click(await findRadio('Network', /^TRX/));
    await waitFor(() => expect(why()).toBe('Choose a saved address.'));
    await user.click(await findRadio('Saved address', /OTC desk/));
    await waitFor(() => expect(why()).toBe('Check the amount above.'));
    expect(review).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Amount'), '100');
    await waitFor(() => expect(screen.queryByTestId('withdraw-review-why')).toBeNull());
    expect(review).toHaveProperty('disabled', false);
    expect(withdrawCalls).toHaveLength(0);
  });

  it('a refusal highlighting the amount stays while the network changes, and goes when the amount is edited', async () => {
    const user = setupUser();
    withdrawAnswer = () => {
      throw {
        code: 'PLATFORM',
        message: 'Not enough balance in the account.',
        label: 'BALANCE_NOT_ENOUGH',
        delivery: 'not_sent',
      };
    };
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '100');
    await user.click(screen.getByTestId('withdraw-review'));
    const sheet = await screen.findByTestId('review-sheet');
    await user.type(await within(sheet).findByLabelText(/Type the amount/), '100');
    await user.click(within(sheet).getByTestId('withdraw-send'));
    await waitFor(() => expect(within(sheet).getAllByTestId('error-notice')).toHaveLength(1));
    await user.click(within(sheet).getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');

    await user.click(getRadio('Network', /^TON/));
    await user.click(await findRadio('Saved address', /Exchange B/));
    await waitFor(() => expect((screen.getByLabelText('Memo / tag') as HTMLInputElement).value).toBe('7734001'));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('100');
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('withdraw-blocked')).toBeNull();

    await user.type(screen.getByLabelText('Amount'), '0');
    await waitFor(() => expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBeNull());
  });

  it('keeps the draft when the form is left and comes back, and follows a currency handed over from outside', async () => {
    const user = setupUser();
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await enterText(screen.getByLabelText('Amount'), '300000');
    cleanup();

    renderForm();
    expect(((await screen.findByLabelText('Amount')) as HTMLInputElement).value).toBe('300000');
    expect(getRadio('Saved address', /OTC desk/)).toHaveProperty('checked', true);
    // Typed before leaving: its rule shows at once.
    expect(await screen.findByText(/Not enough USDT/)).toBeTruthy();

    // Balances → "Withdraw" hands over a currency: a fresh draft with it.
    act(() => useWithdrawDraft.getState().set({ currency: 'USDT', chain: '', address: '', memo: '', amount: '' }));
    await waitFor(() => expect(screen.queryByLabelText('Amount')).toBeNull());
    expect((screen.getByLabelText('Currency') as HTMLSelectElement).value).toBe('USDT');
    expect(screen.queryByText(/Not enough USDT/)).toBeNull();
    await user.click(await findRadio('Network', /^TRX/));
    await user.click(await findRadio('Saved address', /OTC desk/));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('');
  });
});
