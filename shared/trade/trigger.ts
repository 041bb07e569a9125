/**
 * Stop and take-profit orders (the platform's price-triggered orders): which rule a kind of trigger
 * uses for a side, the checks of a trigger ticket (the same hard rules as a normal order through
 * checkTicket, plus the trigger price), and the plain words the screens use. Shared by the renderer
 * (inline, before anything is sent) and main (again, before it leaves the app).
 */
import Decimal from 'decimal.js';
import type { OrderType, Pair, Side, TriggerRule, TriggerStatus } from '../contract/trade';
import { AMOUNT_FORMAT_MESSAGE } from '../format/money';
import { checkTicket, decimalsOf, isPlainDecimal, type TicketErrors } from './ticket';

/**
 * stop: sell when the price falls to the trigger (stop-loss), buy when it rises to it (stop buy);
 * takeProfit: sell when the price rises to the trigger, buy when it falls to it.
 */
export type TriggerKind = 'stop' | 'takeProfit';

export const ruleFor = (kind: TriggerKind, side: Side): TriggerRule =>
  (kind === 'stop') === (side === 'sell') ? '<=' : '>=';

/** "last price ≤ 64,000 USDT" in words. */
export const ruleWords = (rule: TriggerRule): string => (rule === '<=' ? 'falls to or below' : 'rises to or above');

export const TRIGGER_STATUS_WORDS: Record<TriggerStatus, string> = {
  open: 'Waiting',
  fired: 'Fired: order placed',
  failed: 'Failed: order refused',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export const EXPIRY_WORDS: Record<number, string> = {
  3600: '1 hour',
  86400: '1 day',
  604800: '7 days',
  2592000: '30 days',
};

/** What a trigger ticket would send, as typed. */
export interface TriggerDraft {
  pair: string;
  rule: TriggerRule;
  triggerPrice: string;
  side: Side;
  type: OrderType;
  /** Limit price ('' for market). */
  price: string;
  amount: string;
}

export type TriggerErrors = TicketErrors & { triggerPrice?: string };

/**
 * Hard rules: the trigger price at the pair's precision, and the order it places passes every rule a
 * normal order does (precision, minimums, max notional). A market order's value is estimated at the
 * trigger price. Balances are not checked: nothing is reserved until the trigger fires.
 */
export const checkTrigger = (draft: TriggerDraft, ctx: { pair: Pair; maxNotional?: string }): TriggerErrors => {
  const { pair } = ctx;
  const errors: TriggerErrors = {};
  if (draft.triggerPrice === '') errors.triggerPrice = 'Enter a trigger price.';
  else if (!isPlainDecimal(draft.triggerPrice)) errors.triggerPrice = AMOUNT_FORMAT_MESSAGE;
  else if (new Decimal(draft.triggerPrice).lte(0)) errors.triggerPrice = 'The trigger price must be more than 0.';
  else if (decimalsOf(draft.triggerPrice) > pair.precision)
    errors.triggerPrice = `Prices of ${pair.id} have at most ${pair.precision} decimals.`;
  const estimate = errors.triggerPrice === undefined ? draft.triggerPrice : undefined;
  const order = checkTicket(
    {
      pair: draft.pair,
      side: draft.side,
      type: draft.type,
      price: draft.price,
      amount: draft.amount,
      timeInForce: draft.type === 'market' ? 'ioc' : 'gtc',
    },
    {
      pair,
      inStpGroup: false,
      ...(ctx.maxNotional ? { maxNotional: ctx.maxNotional } : {}),
      ...(estimate ? { bestBid: estimate, bestAsk: estimate } : {}),
    },
  );
  return { ...order, ...errors };
};

/**
 * A soft warning: a trigger the last price already meets fires at once. Returns the message, or
 * undefined when the trigger will wait.
 */
export const firesAtOnce = (rule: TriggerRule, triggerPrice: string, last: string | undefined): string | undefined => {
  if (!last || !isPlainDecimal(last) || !isPlainDecimal(triggerPrice)) return undefined;
  const met = rule === '>=' ? new Decimal(last).gte(triggerPrice) : new Decimal(last).lte(triggerPrice);
  return met
    ? `The last price (${last}) already ${rule === '>=' ? 'is at or above' : 'is at or below'} the trigger: it will fire at once.`
    : undefined;
};
