import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pair } from '../../../../../shared/contract/trade';
import { PairBar } from './PairBar';

afterEach(cleanup);

const pair = (id: string): Pair => {
  const [base = '', quote = ''] = id.split('_');
  return { id, base, quote, precision: 2, amountPrecision: 4, tradeStatus: 'tradable' };
};
const pairs = ['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT'].map(pair);

const setup = (favourites: string[] = [], last?: string) => {
  const onSelect = vi.fn();
  const onToggleFavourite = vi.fn();
  render(
    <PairBar
      pairs={pairs}
      pair="BTC_USDT"
      ticker={{
        pair: 'BTC_USDT',
        last: '65000.1',
        changePercentage: '-1.25',
        high24h: '66000',
        low24h: '64000',
        baseVolume: '12.5',
        quoteVolume: '812500',
      }}
      tickers={[]}
      last={last}
      favourites={favourites}
      onSelect={onSelect}
      onToggleFavourite={onToggleFavourite}
    />,
  );
  return { onSelect, onToggleFavourite };
};

describe('PairBar', () => {
  it('writes the last price the spread row writes (the newest trade), not an older ticker', () => {
    setup([], '64987');
    expect(screen.getByTestId('ticker-last').textContent).toBe('64,987.00 USDT');
  });

  it('shows the ticker line: last, 24 h change, high, low, volume', () => {
    setup();
    const line = screen.getByTestId('ticker-line');
    // Prices at the pair's tick (2 decimals here), volumes trimmed, the change signed.
    expect(line.textContent).toContain('65,000.10 USDT');
    expect(line.textContent).toContain('-1.25%');
    expect(line.textContent).toContain('66,000.00 USDT');
    expect(line.textContent).toContain('64,000.00 USDT');
    expect(line.textContent).toContain('12.5 BTC · 812,500 USDT');
  });

  it('the picker lists pairs with prices; typing and Enter select one', async () => {
    const { onSelect } = setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    await userEvent.type(screen.getByRole('combobox', { name: 'Search pairs' }), 'et');
    const list = screen.getByRole('listbox', { name: 'Pairs' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('data-pair')),
    ).toEqual(['ETH_USDT']);
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('ETH_USDT');
  });

  it('the chosen pair’s live ticker is the price in the list', async () => {
    setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    expect(screen.getByRole('option', { name: /BTC \/ USDT/ }).textContent).toContain('65,000.10 USDT');
  });

  it('toggles the chosen pair’s favourite from the bar', async () => {
    const { onToggleFavourite } = setup(['XRP_USDT']);
    await userEvent.click(screen.getByRole('button', { name: 'Add BTC_USDT to favourites' }));
    expect(onToggleFavourite).toHaveBeenCalledWith('BTC_USDT');
  });
});
