/**
 * The inputs of the order a ticket places, the same whether it is sent now or when a trigger fires:
 * price at the pair's precision, amount in the unit the order type and side imply (a market buy
 * spends the quote currency), the pair's minimums as the hint, and a check's message that no
 * single field owns.
 */
import type { OrderType, Pair, Side } from '../../../../../../shared/contract/trade';
import { marketBuyDecimals } from '../../../../../../shared/trade/ticket';
import { formatMoney } from '../../../../lib/format';
import { AmountField, type AmountFieldProps } from '../../../../ui';

/** "Minimum 0.00001 BTC and 3 USDT", or nothing when the pair sets none. */
export const minimumHint = (pair: Pair): string | undefined =>
  pair.minBaseAmount || pair.minQuoteAmount
    ? `Minimum ${[pair.minBaseAmount && formatMoney(pair.minBaseAmount, pair.base), pair.minQuoteAmount && formatMoney(pair.minQuoteAmount, pair.quote)].filter(Boolean).join(' and ')}`
    : undefined;

type PriceFieldProps = Omit<AmountFieldProps, 'label' | 'precision' | 'currency'> & {
  pair: Pair;
  /** What the price is, before the unit: "Price", "Limit price", "When the last price …". */
  label: string;
};

/** A price of the pair: its quote currency, at most its price decimals. */
export function PriceField({ pair, label, ...rest }: PriceFieldProps) {
  return <AmountField label={`${label} (${pair.quote})`} precision={pair.precision} currency={pair.quote} {...rest} />;
}

/** A limit order's price; a market order has none, and says when it fills instead. */
export function OrderPriceField({
  type,
  marketNote,
  ...rest
}: PriceFieldProps & { type: OrderType; marketNote: string }) {
  return type === 'limit' ? <PriceField {...rest} /> : <p className="ticket-note">{marketNote}</p>;
}

export function OrderAmountField({
  pair,
  side,
  type,
  ...rest
}: Omit<AmountFieldProps, 'label' | 'precision' | 'currency' | 'hint'> & { pair: Pair; side: Side; type: OrderType }) {
  const marketBuy = type === 'market' && side === 'buy';
  return (
    <AmountField
      label={marketBuy ? `Spend (${pair.quote})` : `Amount (${pair.base})`}
      precision={marketBuy ? marketBuyDecimals(pair) : pair.amountPrecision}
      currency={marketBuy ? pair.quote : pair.base}
      hint={minimumHint(pair)}
      {...rest}
    />
  );
}
