/**
 * A stop or take-profit order in plain words, the same in the ticket's result line, its review, the
 * trigger lists and the notice when one fires.
 */
import type { Pair, TriggerOrder } from '../../../../../shared/contract/trade';
import { formatMoney } from '../../../lib/format';
import { reasonWords } from './reasons';

/** "Sell 0.01 BTC at 29,900 USDT" / "Buy with 100 USDT at market". */
export const describeTriggerOrder = (
  o: Pick<TriggerOrder, 'side' | 'type' | 'price' | 'amount'>,
  pair: Pick<Pair, 'base' | 'quote'>,
): string => {
  const marketBuy = o.type === 'market' && o.side === 'buy';
  const what = marketBuy
    ? `Buy with ${formatMoney(o.amount, pair.quote)}`
    : `${o.side === 'buy' ? 'Buy' : 'Sell'} ${formatMoney(o.amount, pair.base)}`;
  return `${what} ${o.type === 'market' ? 'at market' : `at ${formatMoney(o.price, pair.quote)}`}`;
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
