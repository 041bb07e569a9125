import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pair, Ticker } from '../../../../../shared/contract/trade';
import { filterPairs, PairPicker } from './PairPicker';

afterEach(cleanup);

const pair = (id: string, precision = 2): Pair => {
  const [base = '', quote = ''] = id.split('_');
  return { id, base, quote, precision, amountPrecision: 4, tradeStatus: 'tradable' };
};
const pairs = [pair('BTC_USDT', 1), pair('ETH_USDT'), pair('ETH_BTC', 5), pair('GT_USDT', 4), pair('XRP_USDT', 4)];
const ticker = (p: string, last: string, changePercentage: string): Ticker => ({
  pair: p,
  last,
  changePercentage,
  high24h: last,
  low24h: last,
  baseVolume: '1',
  quoteVolume: '1',
});
const tickers = [
  ticker('BTC_USDT', '65000.1', '-1.25'),
  ticker('ETH_USDT', '3012.5', '2.5'),
  ticker('ETH_BTC', '0.04634', '0'),
];

const setup = (favourites: string[] = []) => {
  const onSelect = vi.fn();
  const onToggleFavourite = vi.fn();
  const onOpenChange = vi.fn();
  render(
    <PairPicker
      pairs={pairs}
      pair="BTC_USDT"
      tickers={tickers}
      favourites={favourites}
      onSelect={onSelect}
      onToggleFavourite={onToggleFavourite}
      onOpenChange={onOpenChange}
    />,
  );
  return { onSelect, onToggleFavourite, onOpenChange };
};

const options = () =>
  within(screen.getByRole('listbox', { name: 'Pairs' }))
    .getAllByRole('option')
    .map((o) => o.getAttribute('data-pair'));
const highlighted = () => screen.getByRole('option', { selected: true }).getAttribute('data-pair');

describe('filterPairs', () => {
  it('matches the base or the quote by its start, and "base/quote" both', () => {
    const none = new Set<string>();
    expect(filterPairs(pairs, 'eth', none).map((p) => p.id)).toEqual(['ETH_BTC', 'ETH_USDT']);
    expect(filterPairs(pairs, 'btc', none).map((p) => p.id)).toEqual(['BTC_USDT', 'ETH_BTC']);
    expect(filterPairs(pairs, 'eth/us', none).map((p) => p.id)).toEqual(['ETH_USDT']);
    expect(filterPairs(pairs, ' eth btc ', none).map((p) => p.id)).toEqual(['ETH_BTC']);
    expect(filterPairs(pairs, 'usd', none).map((p) => p.id)).toEqual(['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT']);
    expect(filterPairs(pairs, 'sdt', none)).toEqual([]);
  });

  it('lists favourites first', () => {
    expect(filterPairs(pairs, '', new Set(['XRP_USDT']))[0]?.id).toBe('XRP_USDT');
  });
});

describe('PairPicker', () => {
  it('lists each pair with its last price in the quote currency and its 24 h change', async () => {
    const { onOpenChange } = setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    expect(onOpenChange).toHaveBeenLastCalledWith(true);
    const btc = screen.getByRole('option', { name: /BTC \/ USDT/ });
    expect(btc.textContent).toBe('BTC / USDT65,000.1 USDT-1.25%');
    expect(screen.getByRole('option', { name: /ETH \/ USDT/ }).textContent).toBe('ETH / USDT3,012.50 USDT+2.50%');
    // A market that did not move says 0.00%, without a sign.
    expect(screen.getByRole('option', { name: /ETH \/ BTC/ }).textContent).toBe('ETH / BTC0.04634 BTC0.00%');
    // No ticker yet for this pair: a dash, never a made-up price.
    expect(screen.getByRole('option', { name: /GT \/ USDT/ }).textContent).toBe('GT / USDT——');
    expect(btc.getAttribute('aria-current')).toBe('true');
  });

  it('filters as the person types and takes the highlighted pair with Enter', async () => {
    const { onSelect, onOpenChange } = setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    const search = screen.getByRole('combobox', { name: 'Search pairs' });
    expect(document.activeElement).toBe(search);
    await userEvent.type(search, 'eth');
    expect(options()).toEqual(['ETH_BTC', 'ETH_USDT']);
    expect(highlighted()).toBe('ETH_BTC');
    await userEvent.keyboard('{ArrowDown}');
    expect(highlighted()).toBe('ETH_USDT');
    expect(search.getAttribute('aria-activedescendant')).toBe(
      screen.getByRole('option', { selected: true }).getAttribute('id'),
    );
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('ETH_USDT');
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('pair-current'));
  });

  it('arrow keys wrap around, Escape closes without choosing', async () => {
    const { onSelect } = setup();
    screen.getByTestId('pair-current').focus();
    await userEvent.keyboard('{ArrowDown}');
    const search = screen.getByRole('combobox', { name: 'Search pairs' });
    expect(document.activeElement).toBe(search);
    expect(highlighted()).toBe('BTC_USDT');
    await userEvent.keyboard('{ArrowUp}');
    expect(highlighted()).toBe('XRP_USDT');
    await userEvent.keyboard('{ArrowDown}');
    expect(highlighted()).toBe('BTC_USDT');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('says when nothing matches; a click takes a pair', async () => {
    const { onSelect } = setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    await userEvent.type(screen.getByRole('combobox'), 'doge');
    expect(screen.getByText('No pair matches “doge”.')).toBeTruthy();
    await userEvent.clear(screen.getByRole('combobox'));
    await userEvent.type(screen.getByRole('combobox'), 'gt');
    await userEvent.click(screen.getByRole('option', { name: /GT \/ USDT/ }));
    expect(onSelect).toHaveBeenCalledWith('GT_USDT');
  });

  it('toggles the highlighted pair’s favourite', async () => {
    const { onToggleFavourite } = setup(['XRP_USDT']);
    await userEvent.click(screen.getByTestId('pair-current'));
    expect(options()[0]).toBe('XRP_USDT');
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.click(
      within(screen.getByTestId('pair-picker')).getByRole('button', { name: 'Add BTC_USDT to favourites' }),
    );
    expect(onToggleFavourite).toHaveBeenCalledWith('BTC_USDT');
  });
});
