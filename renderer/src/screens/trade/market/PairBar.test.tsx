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

const setup = (favourites: string[] = []) => {
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
      favourites={favourites}
      onSelect={onSelect}
      onToggleFavourite={onToggleFavourite}
    />,
  );
  return { onSelect, onToggleFavourite };
};

describe('PairBar', () => {
  it('shows the ticker line: last, 24 h change, high, low, volume', () => {
    setup();
    const line = screen.getByTestId('ticker-line');
    expect(line.textContent).toContain('65000.1');
    expect(line.textContent).toContain('-1.25%');
    expect(line.textContent).toContain('66000');
    expect(line.textContent).toContain('64000');
    expect(line.textContent).toContain('12.5000 BTC · 812,500.00 USDT');
  });

  it('searches pairs and selects one', async () => {
    const { onSelect } = setup();
    await userEvent.click(screen.getByTestId('pair-current'));
    await userEvent.type(screen.getByLabelText('Search pairs'), 'et');
    const list = screen.getByRole('list', { name: 'Pairs' });
    expect(
      within(list)
        .getAllByRole('button', { name: /USDT$/ })
        .map((b) => b.textContent),
    ).toEqual(['ETH / USDT']);
    await userEvent.click(within(list).getByRole('button', { name: 'ETH / USDT' }));
    expect(onSelect).toHaveBeenCalledWith('ETH_USDT');
  });

  it('lists favourites first and toggles them', async () => {
    const { onToggleFavourite } = setup(['XRP_USDT']);
    await userEvent.click(screen.getByTestId('pair-current'));
    const options = within(screen.getByRole('list', { name: 'Pairs' })).getAllByRole('button', { name: /USDT$/ });
    expect(options[0]!.textContent).toBe('XRP / USDT');
    await userEvent.click(screen.getByRole('button', { name: 'Add GT_USDT to favourites' }));
    expect(onToggleFavourite).toHaveBeenCalledWith('GT_USDT');
  });
});
