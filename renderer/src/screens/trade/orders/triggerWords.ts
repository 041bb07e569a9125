/**
 * A stop or take-profit order in plain words, the same in the ticket's result line, its review, the
 * trigger lists and the notice when one fires.
 */
import type { Pair, TriggerOrder } from '../../../../../shared/contract/trade';
import { formatBase, formatMoney, formatPrice } from '../../../lib/format';
import { reasonWords } from './reasons';

/** The pair a trigger belongs to: its units, and its tick and amount decimals when the pair list has it. */
export type TriggerPair = Pick<Pair, 'base' | 'quote'> & Partial<Pick<Pair, 'precision' | 'amountPrecision'>>;

/** A price as the pair writes it (its tick), with the quote. */
export const pairPriceText = (price: string, pair: TriggerPair): string =>
  pair.precision === undefined
    ? formatMoney(price, pair.quote)
    : formatPrice(price, { precision: pair.precision, quote: pair.quote }, { unit: true });

/** "Sell 0.01 BTC at 29,900.0 USDT" / "Buy with 100 USDT at market". */
export const describeTriggerOrder = (
  o: Pick<TriggerOrder, 'side' | 'type' | 'price' | 'amount'>,
  pair: TriggerPair,
): string => {
  const marketBuy = o.type === 'market' && o.side === 'buy';
  const amount =
    pair.amountPrecision === undefined
      ? formatMoney(o.amount, pair.base)
      : formatBase(o.amount, { amountPrecision: pair.amountPrecision, base: pair.base }, { unit: true });
  const what = marketBuy
    ? `Buy with ${formatMoney(o.amount, pair.quote)}`
    : `${o.side === 'buy' ? 'Buy' : 'Sell'} ${amount}`;
  return `${what} ${o.type === 'market' ? 'at market' : `at ${pairPriceText(o.price, pair)}`}`;
};

/** "is waiting", "fired: order 123 placed", "failed: not enough balance when it fired", … */
export const triggerStateWords = (t: Pick<TriggerOrder, 'status' | 'firedOrderId' | 'reason'>): string => {
  switch (t.status) {
    case 'open':
      return 'is waiting';
    case 'fired':
      return t.firedOrderId ? `fired: order ${t.firedOrderId} placed` : 'fired: order placed';
    case 'failed':
      return `failed: ${reasonWords(t.reason)}`;
    case 'expired':
      return 'expired without firing';
    default:
      return 'was cancelled';
  }
};
