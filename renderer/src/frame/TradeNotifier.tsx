/**
 * Tells the trader when one of their orders traded — filled by someone else while they look at
 * another screen or another window — with how much and at what price. Main's orders watcher reads
 * the order back and sends `trade.orderFilled` (it follows the pair open on the Trade screen).
 * One notice per order: a later fill replaces the earlier notice.
 */
import Decimal from 'decimal.js';
import { type DeskEventPayload, useDeskEvent } from '../lib/desk';
import { formatAmountOrText, formatMoneyOrText } from '../lib/format';
import { notify } from '../lib/notify';

type Fill = DeskEventPayload<'trade.orderFilled'>;

/** The notice for one fill. */
export const describeFill = ({ order, filledNow }: Fill) => {
  const [base = '', quote = ''] = order.pair.split('_');
  const complete = new Decimal(order.left || '0').isZero();
  return {
    tone: 'good' as const,
    title: `${order.side === 'buy' ? 'Buy' : 'Sell'} order ${complete ? 'filled' : 'partly filled'}: ${formatMoneyOrText(filledNow, base)}`,
    message: `${base} / ${quote} at ${formatMoneyOrText(order.price, quote)} · ${formatAmountOrText(order.filledAmount)} of ${formatMoneyOrText(order.amount, base)} filled`,
    screen: 'trade' as const,
    key: `order:${order.id}`,
  };
};

export const TradeNotifier = () => {
  useDeskEvent('trade.orderFilled', (fill) => notify(describeFill(fill)));
  return null;
};
