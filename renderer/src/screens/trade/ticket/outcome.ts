/** A placed order's result in plain words, for the line under the ticket and the orders tables. */
import Decimal from 'decimal.js';
import type { Order } from '../../../../../shared/contract/trade';

const base = (pair: string) => pair.split('_')[0] ?? '';

export const describeOutcome = (order: Order): string => {
  const unit = base(order.pair);
  const filled = new Decimal(order.filledAmount || '0');
  const marketBuy = order.type === 'market' && order.side === 'buy';
  const filledText = `${filled.toFixed()} ${unit}`;
  switch (order.finishAs) {
    case 'filled':
      return `Filled: ${filledText} at an average of ${order.avgDealPrice}.`;
    case 'ioc':
      return filled.isZero()
        ? 'Immediate-or-cancel: nothing could trade at this price, so the order was cancelled.'
        : marketBuy
          ? `Immediate-or-cancel: bought ${filledText}; the unspent ${order.left} was cancelled.`
          : `Immediate-or-cancel: ${filledText} filled; the remaining ${order.left} ${unit} was cancelled.`;
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
      ? `Resting on the book: ${order.side} ${order.left} ${unit} at ${order.price}.`
      : `Partly filled (${filledText}); the remaining ${order.left} ${unit} rests on the book at ${order.price}.`;
  if (order.status === 'closed') return `Filled: ${filledText} at an average of ${order.avgDealPrice}.`;
  return `Finished (${order.finishAs || order.status}).`;
};
