import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FirmAccount, FirmView as FirmViewData } from '../../../../shared/contract/balances';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { FirmView } from './FirmView';

afterEach(() => cleanup());

/** A sub-account holding 100 USDT (priced) and 1.5 DUST (no price in USDT). */
const sub = (uid: string): FirmAccount => ({
  uid,
  label: `desk ${uid}`,
  role: 'sub',
  holdings: [
    { account: 'spot', currency: 'DUST', amount: '1.5', value: null },
    { account: 'spot', currency: 'USDT', amount: '100', value: '100' },
  ],
  value: '100',
  errors: {},
});

/** Main (1,000 USDT) and 300 sub-accounts: 900 holdings left out of the total, all DUST. */
const view = (): FirmViewData => {
  const subs = Array.from({ length: 300 }, (_, i) => sub(String(i + 2)));
  return {
    quote: 'USDT',
    fetchedAt: 1_700_000_000,
    prices: { USDT: '1' },
    accounts: [
      {
        uid: '1',
        label: 'Main account',
        role: 'main',
        holdings: [
          { account: 'spot', currency: 'DUST', amount: '2000000', value: null },
          { account: 'spot', currency: 'USDT', amount: '1000', value: '1000' },
        ],
        value: '1000',
        errors: {},
      },
      ...subs,
    ],
    currencies: [
      { currency: 'DUST', amount: '2000450', value: null },
      { currency: 'USDT', amount: '31000', value: '31000' },
    ],
    total: '31000',
    unpriced: ['DUST'],
    incomplete: false,
    basis: 'Valued in USDT.',
  };
};

describe('FirmView', () => {
  it('says what the total leaves out per currency, and lists every holding left out only when asked', async () => {
    installFakeDesk({ 'balances.firm': () => view(), 'balances.firmHistory': () => [] });
    renderWithQuery(<FirmView />);

    const total = await screen.findByTestId('firm-total');
    expect(within(total).getByTestId('firm-total-value').textContent).toContain('31,000');
    expect(screen.getByTestId('firm-accounts').getAttribute('data-row-count')).toBe('301');
    expect(within(total).getByTestId('firm-incomplete').textContent).toContain(
      'the total leaves out 301 of 602 holdings',
    );
    // One line per currency without a price: its amount across the firm, in how many holdings.
    const unpriced = within(total).getByTestId('firm-unpriced');
    expect(unpriced.textContent).toContain('No price in USDT for: 2,000,450 DUST (301 holdings).');
    // The 301 holdings themselves are not drawn with the total…
    const list = within(unpriced).getByTestId('firm-unpriced-holdings');
    expect(list.textContent).toBe('Every holding left out (301)');
    // …but one click away, each with whose it is.
    (list as HTMLDetailsElement).open = true;
    act(() => {
      fireEvent(list, new Event('toggle'));
    });
    await waitFor(() => expect(list.textContent).toContain('2,000,000 DUST (Main account, spot)'));
    expect(list.textContent).toContain('1.5 DUST (desk 301, spot)');
    expect(list.textContent?.split(';')).toHaveLength(301);
  });
});
