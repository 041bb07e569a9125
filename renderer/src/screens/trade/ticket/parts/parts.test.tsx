import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pair } from '../../../../../../shared/contract/trade';
import { minimumHint, OrderAmountField, OrderPriceField } from './OrderFields';
import { ReviewDialog, WarningList } from './ReviewDialog';
import { ResultNotice, SubmitButton, TicketFrame, TicketResult } from './TicketFrame';
import { OrderTypeToggle, SideToggle } from './TicketToggle';

afterEach(cleanup);

const pair: Pair = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  precision: 1,
  amountPrecision: 6,
  minBaseAmount: '0.00001',
  minQuoteAmount: '3',
  tradeStatus: 'tradable',
};

describe('ticket toggles', () => {
  it('press one side or type at a time and report the choice', async () => {
    const onSide = vi.fn();
    const onType = vi.fn();
    render(
      <>
        <SideToggle base="BTC" side="sell" onChange={onSide} />
        <OrderTypeToggle legend="Order type" type="limit" onChange={onType} />
      </>,
    );
    const sell = screen.getByRole('button', { name: 'Sell BTC' });
    expect(sell.getAttribute('aria-pressed')).toBe('true');
    expect(sell.className).toBe('ticket-side ticket-sell is-on');
    expect(screen.getByRole('button', { name: 'Buy BTC' }).className).toBe('ticket-side ticket-buy');
    expect(screen.getByRole('group', { name: 'Order type' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy BTC' }));
    await userEvent.click(screen.getByRole('button', { name: 'Market' }));
    expect(onSide).toHaveBeenCalledWith('buy');
    expect(onType).toHaveBeenCalledWith('market');
  });
});

describe('order fields', () => {
  it('a market buy spends the quote currency; anything else is an amount of the base', () => {
    const { rerender } = render(<OrderAmountField pair={pair} side="buy" type="market" value="" onChange={() => {}} />);
    expect(screen.getByLabelText('Spend (USDT)')).toBeTruthy();
    rerender(<OrderAmountField pair={pair} side="sell" type="market" value="" onChange={() => {}} />);
    expect(screen.getByLabelText('Amount (BTC)')).toBeTruthy();
    expect(screen.getByText('Minimum 0.00001 BTC and 3 USDT')).toBeTruthy();
  });

  it('a market order has no price, only the note of when it fills', () => {
    const props = { pair, label: 'Limit price', marketNote: 'Fills when it fires.', value: '', onChange: () => {} };
    const { rerender } = render(<OrderPriceField {...props} type="limit" />);
    expect(screen.getByLabelText('Limit price (USDT)')).toBeTruthy();
    rerender(<OrderPriceField {...props} type="market" />);
    expect(screen.queryByLabelText(/Limit price/)).toBeNull();
    expect(screen.getByText('Fills when it fires.')).toBeTruthy();
  });

  it('no minimum hint when the pair sets none', () => {
    expect(minimumHint({ ...pair, minBaseAmount: '', minQuoteAmount: '' })).toBeUndefined();
  });
});

describe('ticket frame and result', () => {
  it('submits through the form without the browser validating it, and colours the button by side', async () => {
    const onSubmit = vi.fn();
    render(
      <TicketFrame label="Order ticket" testId="t" onSubmit={onSubmit} after={null}>
        <SubmitButton side="sell">Sell BTC</SubmitButton>
      </TicketFrame>,
    );
    const button = screen.getByRole('button', { name: 'Sell BTC' });
    expect(button.className).toContain('ticket-submit-sell');
    await userEvent.click(button);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('region', { name: 'Order ticket' }).querySelector('form')?.noValidate).toBe(true);
  });

  it('a notice leaves out absent lines and passes its data attributes on', () => {
    render(
      <TicketResult testId="result" error={undefined}>
        <ResultNotice
          tone="good"
          data-testid="outcome"
          data-status="open"
          heading="Order 1"
          lines={['Resting.', null]}
        />
      </TicketResult>,
    );
    const notice = screen.getByTestId('outcome');
    expect(notice.className).toBe('notice notice-good');
    expect(notice.dataset.status).toBe('open');
    expect(notice.querySelectorAll('.notice-text')).toHaveLength(1);
    expect(screen.getByTestId('result').getAttribute('aria-live')).toBe('polite');
  });
});

describe('ReviewDialog', () => {
  const summary = (d: string) => <p>{d}</p>;

  it('confirms plainly without warnings, and says "Check this …" and "Place anyway" with them', async () => {
    const onConfirm = vi.fn();
    const { rerender } = render(
      <ReviewDialog
        noun="trigger"
        review={{ draft: 'Sell 1 BTC', warnings: [] }}
        onCancel={() => {}}
        onConfirm={onConfirm}
        testId="confirm"
        warningsTestId="warnings"
        summary={summary}
      />,
    );
    expect(screen.getByText('Confirm trigger')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Place trigger' })).toBeTruthy();
    expect(screen.queryByTestId('warnings')).toBeNull();
    rerender(
      <ReviewDialog
        noun="trigger"
        review={{ draft: 'Sell 1 BTC', warnings: [{ kind: 'atOnce', message: 'Fires at once.' }] }}
        onCancel={() => {}}
        onConfirm={onConfirm}
        testId="confirm"
        warningsTestId="warnings"
        summary={summary}
      />,
    );
    expect(screen.getByText('Check this trigger')).toBeTruthy();
    expect(screen.getByTestId('warnings').querySelector('li')?.dataset.kind).toBe('atOnce');
    expect(screen.getByText('Sell 1 BTC')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Place anyway' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('a warning list without warnings renders nothing', () => {
    const { container } = render(<WarningList warnings={[]} testId="w" />);
    expect(container.innerHTML).toBe('');
  });
});
