import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText, setupUser } from '../../lib/testing/user';
import { TransferForm } from './TransferForm';

afterEach(cleanup);

/** The person at the keyboard, a fresh one per test (lib/testing/user.ts: no hover before each click). */
let user = setupUser();
beforeEach(() => {
  user = setupUser();
});

const subs = {
  accounts: [
    { userId: 11, loginName: 'desk_a', state: 'normal', type: 'normal' },
    { userId: 12, loginName: 'desk_b', state: 'frozen', type: 'normal' },
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const setup = (
  available: string | null = '100.5',
  send: (input: unknown) => unknown = () => ({ id: 'm1', state: 'done', txId: '99' }),
) => {
  const desk = installFakeDesk({
    'subAccounts.list': () => subs,
    'transfers.available': () => ({ available }),
    'transfers.send': send,
  });
  const onResult = vi.fn();
  renderWithQuery(<TransferForm onResult={onResult} />);
  return { desk, onResult };
};

const chooseSub = async () => {
  await screen.findByRole('option', { name: 'desk_a (UID 11)' });
  await user.selectOptions(screen.getByLabelText('Sub-account'), '11');
};

describe('Transfer form: amount rules are checked before sending', () => {
  it('stops an amount with 9 decimals', async () => {
    const { desk } = setup();
    await chooseSub();
    // Typed key by key: the check runs as each character arrives.
    await user.type(screen.getByLabelText('Amount'), '1.123456789');
    expect(screen.getByText('At most 8 decimals are allowed (this has 9).')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(screen.getByTestId('transfer-invalid')).toBeTruthy();
    expect(screen.queryByTestId('transfer-confirm')).toBeNull();
    expect(desk.callsOf('transfers.send')).toEqual([]);
  });

  it.each([
    ['0', 'greater than 0'],
    ['-3', 'cannot be negative'],
    ['1,5', 'commas or spaces only between thousands'],
    ['1.000,5', 'commas or spaces only between thousands'],
  ])('stops %j', async (amount, message) => {
    const { desk } = setup();
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), amount);
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(screen.getByText(new RegExp(message))).toBeTruthy();
    expect(desk.callsOf('transfers.send')).toEqual([]);
  });

  it('stops more than is available in the source account', async () => {
    const { desk } = setup('100.5');
    await chooseSub();
    await screen.findByText(/Available: 100.5 USDT/);
    await enterText(screen.getByLabelText('Amount'), '100.50000001');
    expect(screen.getByText('That is more than the 100.5 USDT available.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(desk.callsOf('transfers.send')).toEqual([]);
  });

  it('requires a sub-account before reviewing', async () => {
    const { desk } = setup();
    await user.type(screen.getByLabelText('Amount'), '1');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(screen.getByText('Choose a sub-account.')).toBeTruthy();
    expect(desk.callsOf('transfers.send')).toEqual([]);
  });

  it('reviews, then sends exactly once with the contract input', async () => {
    const { desk, onResult } = setup();
    await chooseSub();
    await enterText(screen.getByLabelText('Amount'), '25.12345678');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(screen.getByTestId('review-amount').textContent).toBe('25.12345678 USDT');
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect(desk.callsOf('transfers.send')).toEqual([
      {
        kind: 'mainSub',
        direction: 'to',
        subUserId: 11,
        subAccountType: 'spot',
        currency: 'USDT',
        amount: '25.12345678',
        requestKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it.each([
    ['1,000.5', '1000.5', '1,000.5 USDT'],
    [' 1 000 ', '1000', '1,000 USDT'],
    ['.5', '0.5', '0.5 USDT'],
    ['100.', '100', '100 USDT'],
  ])('reads %j as written and sends the canonical %s', async (typed, sent, shown) => {
    const { desk, onResult } = setup('5000');
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), typed);
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(screen.getByTestId('review-amount').textContent).toBe(shown);
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect((desk.callsOf('transfers.send') as { amount: string }[])[0]?.amount).toBe(sent);
  });

  it('a double click on “Transfer now” sends one call; a new review gets a new request key', async () => {
    let answer: (value: unknown) => void = () => {};
    const { desk, onResult } = setup('100.5', () => new Promise((resolve) => (answer = resolve)));
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '5');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    const confirm = screen.getByRole('button', { name: 'Transfer now' });
    // Both clicks land before React can re-render the button as busy.
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await vi.waitFor(() => expect(desk.callsOf('transfers.send')).toHaveLength(1));
    answer({ id: 'm1', state: 'done', txId: '99' });
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect(desk.callsOf('transfers.send')).toHaveLength(1);

    await user.type(screen.getByLabelText('Amount'), '6');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(desk.callsOf('transfers.send')).toHaveLength(2));
    const [first, second] = desk.callsOf('transfers.send') as { requestKey: string; amount: string }[];
    expect(first?.requestKey).toMatch(UUID);
    expect(second?.amount).toBe('6');
    expect(second?.requestKey).toMatch(UUID);
    expect(second?.requestKey).not.toBe(first?.requestKey);
  });

  it('asks for the pair only for margin and the settle currency only for contracts', async () => {
    setup(null);
    await user.selectOptions(screen.getByLabelText('Transfer type'), 'own');
    // spot → futures (the default pair of accounts): settle needed, pair not.
    expect(screen.getByLabelText('Settle currency')).toBeTruthy();
    expect(screen.queryByLabelText('Margin market (pair)')).toBeNull();
    await user.selectOptions(screen.getByLabelText('To account'), 'options');
    expect(screen.queryByLabelText('Settle currency')).toBeNull();
    expect(screen.queryByLabelText('Margin market (pair)')).toBeNull();
    await user.selectOptions(screen.getByLabelText('To account'), 'margin');
    expect(screen.getByLabelText('Margin market (pair)')).toBeTruthy();
    expect(screen.queryByLabelText('Settle currency')).toBeNull();
  });
});

describe('Transfer form: a refusal shows once, at the field it names', () => {
  const refuse = (error: object) => () => {
    throw error;
  };

  it("main's field message goes under that field, not into a banner", async () => {
    const { onResult } = setup(
      '100.5',
      refuse({
        code: 'INVALID_INPUT',
        message: 'Check the values',
        delivery: 'not_sent',
        fields: { amount: 'At most 8 decimals are allowed (this has 9).' },
      }),
    );
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '25');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('At most 8 decimals are allowed (this has 9).')).toHaveLength(1);
    // Nothing left for a banner: the result says only where to look.
    expect(onResult.mock.calls[0]?.[0]).not.toHaveProperty('error');
    // Editing the field clears main's message.
    await user.type(screen.getByLabelText('Amount'), '1');
    expect(screen.queryByText('At most 8 decimals are allowed (this has 9).')).toBeNull();
  });

  it('a platform refusal about the amount is one banner, and the amount is highlighted without a second message', async () => {
    const { onResult } = setup(
      '100.5',
      refuse({
        code: 'PLATFORM',
        label: 'BALANCE_NOT_ENOUGH',
        message: 'Not enough balance',
        delivery: 'not_sent',
      }),
    );
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '25');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    const left = onResult.mock.calls[0]?.[0] as { error?: { highlighted?: string[] } };
    expect(left.error?.highlighted).toEqual(['Amount']);
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Not enough balance')).toBeNull();
  });
});

describe('Transfer form: dependent fields', () => {
  it('says at once when the two accounts are the same, and nothing is sent', async () => {
    const { desk } = setup(null);
    await user.selectOptions(screen.getByLabelText('Transfer type'), 'own');
    await user.selectOptions(screen.getByLabelText('To account'), 'spot');
    expect(await screen.findByText('Choose two different accounts.')).toBeTruthy();
    expect(screen.queryByTestId('transfer-invalid')).toBeNull();
    await user.type(screen.getByLabelText('Amount'), '1');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    expect(await screen.findByTestId('transfer-invalid')).toBeTruthy();
    expect(screen.getAllByText('Choose two different accounts.')).toHaveLength(1);
    expect(screen.queryByTestId('transfer-confirm')).toBeNull();
    await user.selectOptions(screen.getByLabelText('To account'), 'options');
    await vi.waitFor(() => expect(screen.queryByText('Choose two different accounts.')).toBeNull());
    expect(screen.queryByTestId('transfer-invalid')).toBeNull();
    expect(desk.callsOf('transfers.send')).toEqual([]);
  });

  it('"Use all" fills what is available (at most 8 decimals)', async () => {
    setup('100.123456789');
    await chooseSub();
    await screen.findByText(/Available: 100.123456789 USDT/);
    await user.click(screen.getByRole('button', { name: 'Use all' }));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('100.12345678');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a transfer is done, the amount is cleared and "required" waits for the next attempt', async () => {
    const { onResult } = setup();
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '5');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByText('Enter an amount.')).toBeNull();
    expect((screen.getByLabelText('Sub-account') as HTMLSelectElement).value).toBe('11');
  });
});

describe('Transfer form: refusals stay at their field until it is edited', () => {
  it('a highlighted amount stays while another field changes, and goes when the amount is edited', async () => {
    const { onResult } = setup('100.5', () => {
      throw { code: 'PLATFORM', label: 'BALANCE_NOT_ENOUGH', message: 'Not enough balance', delivery: 'not_sent' };
    });
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '25');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    await user.selectOptions(screen.getByLabelText('Sub-account’s account'), 'futures');
    await screen.findByText(/Available: 100.5 USDT/);
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('transfer-invalid')).toBeNull();
    await user.type(screen.getByLabelText('Amount'), '.5');
    await vi.waitFor(() => expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBeNull());
  });

  it("main's message about the sub-account's account shows at that field", async () => {
    const { onResult } = setup(
      '100.5',
      refuseWith({
        code: 'INVALID_INPUT',
        message: 'Check the values',
        delivery: 'not_sent',
        fields: { subAccountType: 'This sub-account has no such account.' },
      }),
    );
    await chooseSub();
    await user.type(screen.getByLabelText('Amount'), '25');
    await user.click(screen.getByRole('button', { name: 'Review transfer' }));
    await user.click(screen.getByRole('button', { name: 'Transfer now' }));
    await vi.waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    expect(onResult.mock.calls[0]?.[0]).not.toHaveProperty('error');
    expect(screen.getByLabelText('Sub-account’s account').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('This sub-account has no such account.')).toHaveLength(1);
  });
});

const refuseWith = (error: object) => () => {
  throw error;
};

describe('Transfer form: the currency is picked from what the source holds', () => {
  it('lists the source spot account’s holdings with what is available; a click picks one', async () => {
    installFakeDesk({
      'subAccounts.list': () => subs,
      'transfers.available': () => ({ available: '2.35' }),
      'balances.spot': () => [
        { currency: 'USDT', available: '243310.25', locked: '0', total: '243310.25' },
        { currency: 'BTC', available: '2.35', locked: '0', total: '2.35' },
        { currency: 'DOGE', available: '0', locked: '0', total: '0' },
      ],
    });
    renderWithQuery(<TransferForm onResult={vi.fn()} />);
    const held = await screen.findByTestId('transfer-held');
    expect(held.textContent).toBe('Held in the source spot account:243,310.25 USDT2.35 BTC');
    expect(screen.getByTestId('transfer-held-USDT').getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByTestId('transfer-held-BTC'));
    expect((screen.getByRole('textbox', { name: 'Currency' }) as HTMLInputElement).value).toBe('BTC');
    expect(screen.getByTestId('transfer-held-BTC').getAttribute('aria-pressed')).toBe('true');
  });
});
