/** A placed order's result in plain words, for the line under the ticket and the orders tables. */
import Decimal from 'decimal.js';
import type { Order } from '../../../../../shared/contract/trade';
import { formatMoney, formatMoneyOrText } from '../../../lib/format';

const base = (pair: string) => pair.split('_')[0] ?? '';
const quoteOf = (pair: string) => pair.split('_')[1] ?? '';

export const describeOutcome = (order: Order): string => {
  const unit = base(order.pair);
  const filled = new Decimal(order.filledAmount || '0');
  const marketBuy = order.type === 'market' && order.side === 'buy';
  const quote = quoteOf(order.pair);
  const filledText = formatMoney(filled, unit);
  const left = formatMoneyOrText(order.left, marketBuy ? quote : unit);
  const price = formatMoneyOrText(order.price, quote);
  const average = order.avgDealPrice ? formatMoneyOrText(order.avgDealPrice, quote) : 'unknown';
  switch (order.finishAs) {
    case 'filled':
      return `Filled: ${filledText} at an average of ${average}.`;
    case 'ioc':
      return filled.isZero()
        ? 'Immediate-or-cancel: nothing could trade at this price, so the order was cancelled.'
        : marketBuy
          ? `Immediate-or-cancel: bought ${filledText}; the unspent ${left} was cancelled.`
          : `Immediate-or-cancel: ${filledText} filled; the remaining ${left} was cancelled.`;
    case 'poc':
      return 'Post-only: the order would have traded at once, so it was cancelled and nothing traded.';
    case 'fok':
      return 'Fill-or-kill: the order could not be filled completely, so nothing traded.';
    case 'stp':
      return `Self-trade prevention: the order met your own order in the same STP group and was cancelled${filled.isZero() ? '' : ` after ${filledText} filled`}.`;
    case 'cancelled':
      return filled.isZero() ? 'Cancelled.' : `Cancelled after ${filledText} filled.`;
    default:
      break;
  }
  if (order.status === 'open')
    return filled.isZero()
      ? `Resting on the book: ${order.side} ${left} at ${price}.`
      : `Partly filled (${filledText}); the remaining ${left} rests on the book at ${price}.`;
  if (order.status === 'closed') return `Filled: ${filledText} at an average of ${average}.`;
  return `Finished (${order.finishAs || order.status}).`;
};

/**
 * How the result reads at a glance: a warning when the order ended at once without trading what
 * was asked (post-only that would have taken, fill-or-kill, an IOC that found nothing, self-trade
 * prevention): the platform accepted it, but nothing the person wanted happened.
 */
export const outcomeTone = (order: Order): 'good' | 'warn' => {
  const nothingTraded = new Decimal(order.filledAmount || '0').isZero();
  switch (order.finishAs) {
    case 'poc':
    case 'fok':
      return 'warn';
    case 'ioc':
    case 'stp':
      return nothingTraded ? 'warn' : 'good';
    default:
      return 'good';
  }
};
