import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { PushPanel } from './PushPanel';

afterEach(cleanup);

const balances = () => [{ currency: 'USDT', available: '100', locked: '0' }];
const refuse = (error: object) => () => {
  throw error;
};

const fill = async (uid: string, amount: string) => {
  await screen.findByLabelText('Receiving user id');
  await userEvent.type(screen.getByLabelText('Receiving user id'), uid);
  await userEvent.selectOptions(screen.getByLabelText('Currency'), 'USDT');
  await userEvent.type(screen.getByLabelText('Amount'), amount);
};
const review = () => userEvent.click(screen.getByTestId('push-review'));
const send = () => userEvent.click(within(screen.getByTestId('push-confirm')).getByTestId('confirm-accept'));

describe('UID transfer form: one way for errors', () => {
  it('checks every field before the confirmation, each error once at its field', async () => {
    const desk = installFakeDesk({ 'balances.spot': balances, 'funding.pushes': () => [] });
    renderWithQuery(<PushPanel />);
    await screen.findByLabelText('Receiving user id');
    await userEvent.type(screen.getByLabelText('Amount'), '500');
    await review();
    expect(screen.getAllByText('Enter the receiving account’s user id.')).toHaveLength(1);
    expect(screen.getAllByText('Choose a currency.')).toHaveLength(1);
    expect(screen.getByLabelText('Receiving user id').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('push-confirm')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Currency'), 'USDT');
    // The currency's problem is never shown under the amount; the amount's own is.
    const amountField = screen.getByLabelText('Amount').closest('.field') as HTMLElement;
    await vi.waitFor(() => expect(amountField.textContent).toContain('Only 100 USDT is available.'));
    expect(amountField.textContent).not.toContain('currency');
    expect(desk.callsOf('funding.push')).toEqual([]);
  });

  it('sends the contract’s PushDetails', async () => {
    const desk = installFakeDesk({
      'balances.spot': balances,
      'funding.pushes': () => [],
      'funding.push': () => ({ outcome: 'unknown', movementId: 'm1' }),
    });
    renderWithQuery(<PushPanel />);
    await fill('12345', '10');
    await review();
    await send();
    await vi.waitFor(() => expect(desk.callsOf('funding.push')).toHaveLength(1));
    expect(desk.callsOf('funding.push')[0]).toMatchObject({ receiveUid: 12345, currency: 'USDT', amount: '10' });
  });

  it('main’s refusal naming a field: shown once, at that field; no banner', async () => {
    installFakeDesk({
      'balances.spot': balances,
      'funding.pushes': () => [],
      'funding.push': refuse({
        code: 'INVALID_INPUT',
        message: 'The request was not valid; nothing was sent.',
        fields: { receiveUid: 'This is a sub-account of yours.' },
        delivery: 'not_sent',
      }),
    });
    renderWithQuery(<PushPanel />);
    await fill('12345', '10');
    await review();
    await send();
    await vi.waitFor(() => expect(screen.getAllByText('This is a sub-account of yours.')).toHaveLength(1));
    expect(screen.getByLabelText('Receiving user id').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('error-notice')).toBeNull();
    expect(screen.queryByText('Check the values you entered and try again.')).toBeNull();
  });

  it('a platform refusal naming the amount: ONE banner, and the amount highlighted', async () => {
    installFakeDesk({
      'balances.spot': balances,
      'funding.pushes': () => [],
      'funding.push': refuse({
        code: 'PLATFORM',
        message: 'Not enough balance in the account.',
        label: 'BALANCE_NOT_ENOUGH',
        advice: 'Check the values you entered and try again.',
        delivery: 'not_sent',
      }),
    });
    renderWithQuery(<PushPanel />);
    await fill('12345', '10');
    await review();
    await send();
    await vi.waitFor(() => expect(screen.getAllByTestId('error-notice')).toHaveLength(1));
    expect(screen.getAllByText('Not enough balance in the account.')).toHaveLength(1);
    expect(screen.getByTestId('error-highlighted').textContent).toContain('Amount');
    expect(screen.getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Receiving user id').getAttribute('aria-invalid')).toBeNull();
  });

  it('a refusal about no field is one banner with main’s advice as is, nothing highlighted', async () => {
    installFakeDesk({
      'balances.spot': balances,
      'funding.pushes': () => [],
      'funding.push': refuse({
        code: 'PLATFORM',
        message: 'A value in the request was not accepted by the platform.',
        label: 'INVALID_PARAM_VALUE',
        advice: 'Check the values you entered and try again.',
        delivery: 'not_sent',
      }),
    });
    renderWithQuery(<PushPanel />);
    await fill('12345', '10');
    await review();
    await send();
    await vi.waitFor(() => expect(screen.getAllByTestId('error-notice')).toHaveLength(1));
    expect(screen.getByText('Check the values you entered and try again.')).toBeTruthy();
    expect(screen.queryByText(/highlighted/i)).toBeNull();
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  });

  it('queued for an approver: the confirmation closes, the form says it waits in Approvals; no second Send', async () => {
    const desk = installFakeDesk({
      'balances.spot': balances,
      'funding.pushes': () => [],
      'funding.push': refuse({
        code: 'AWAITING_APPROVAL',
        message: 'UID transfer of 60 USDT to UID 12345 waits for approval (item a1).',
        advice: 'An operator other than you approves it in Approvals.',
      }),
    });
    renderWithQuery(<PushPanel />);
    await fill('12345', '60');
    await review();
    await send();
    await vi.waitFor(() => expect(screen.queryByTestId('push-confirm')).toBeNull());
    expect(screen.getByTestId('push-queued').textContent).toContain('waits for approval (item a1)');
    expect(screen.queryByTestId('error-notice')).toBeNull();
    // Nothing left armed: the amount is cleared and no confirmation is open to click again.
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('');
    expect(desk.callsOf('funding.push')).toHaveLength(1);
  });
});
