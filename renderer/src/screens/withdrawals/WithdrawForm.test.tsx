import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrencyChainInfo, SavedAddress, WithdrawRules } from '../../../../shared/contract/funding';
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
};

/** A stand-in for main: answers reads from fixed data and records every withdraw call. */
const withdrawCalls: unknown[] = [];
const answers: Record<string, (input: Record<string, unknown>) => unknown> = {
  'funding.withdrawRules': () => [rules],
  'balances.spot': () => [{ currency: 'USDT', available: '250000', locked: '0', total: '250000' }],
  'funding.chains': () => [chain('TRX'), chain('TON', { usesMemo: true }), chain('SOL', { withdrawDisabled: true })],
  'funding.savedAddresses': (input) => addresses[input.chain as string] ?? [],
  'funding.reviewPolicy': () => ({ typedConfirmAbove: {} }),
  'funding.withdraw': (input) => {
    withdrawCalls.push(input);
    return { outcome: 'accepted', withdrawOrderId: 'td1' };
  },
};

beforeEach(() => {
  withdrawCalls.length = 0;
  useWithdrawDraft.getState().reset();
  const desk = new Proxy(
    {},
    {
      get: (_target, area: string) =>
        new Proxy(
          {},
          {
            get: (_t, op: string) => async (input: Record<string, unknown>) => {
              const answer = answers[`${area}.${op}`];
              if (!answer) return { ok: false, error: { code: 'UNKNOWN_OPERATION', message: `${area}.${op}` } };
              return { ok: true, value: answer(input) };
            },
          },
        ),
    },
  );
  Object.defineProperty(window, 'desk', { value: desk, configurable: true });
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

const choose = async (user: ReturnType<typeof userEvent.setup>, network: RegExp, address: RegExp) => {
  await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
  await user.click(await screen.findByRole('radio', { name: network }));
  await user.click(await screen.findByRole('radio', { name: address }));
};

describe('withdrawal form', () => {
  it('shows a suspended network, explained and not selectable', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.selectOptions(await screen.findByLabelText('Currency'), 'USDT');
    const sol = await screen.findByRole('radio', { name: /^SOL/ });
    expect(sol).toHaveProperty('disabled', true);
    expect(screen.getByTestId('chain-SOL').textContent).toContain('suspended');
  });

  it('stops a too-large amount before anything is sent', async () => {
    const user = userEvent.setup();
    renderForm();
    await choose(user, /^TRX/, /OTC desk/);
    await user.type(screen.getByLabelText('Amount'), '300000');
    expect(await screen.findByText(/Not enough USDT: this needs 300001/)).toBeTruthy();
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.getByTestId('withdraw-blocked').textContent).toContain('Not enough USDT');
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(withdrawCalls).toHaveLength(0);
  });

  it('stops a missing memo on a memo network', async () => {
    const user = userEvent.setup();
    renderForm();
    await choose(user, /^TON/, /Exchange B/);
    expect(screen.getByTestId('memo-warning')).toBeTruthy();
    const memo = screen.getByLabelText('Memo / tag') as HTMLInputElement;
    expect(memo.value).toBe('7734001');
    await user.clear(memo);
    await user.type(screen.getByLabelText('Amount'), '20');
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.getByTestId('withdraw-blocked').textContent).toContain('needs a memo');
    expect(screen.queryByTestId('review-sheet')).toBeNull();
    expect(withdrawCalls).toHaveLength(0);
  });

  it('reviews fee and net, asks for the typed amount, and sends exactly once', async () => {
    const user = userEvent.setup();
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
    expect(withdrawCalls).toEqual([{ currency: 'USDT', chain: 'TRX', address: 'TXYZ0123456789abcdef', amount: '100' }]);
  });
});
