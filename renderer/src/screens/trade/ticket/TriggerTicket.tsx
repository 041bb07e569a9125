/**
 * The ticket's "Stop / take-profit" mode: an order the platform places for you when the last price
 * reaches a trigger. The rule follows from the side and the kind (a stop-loss sell waits for the price
 * to fall to the trigger, a take-profit sell for it to rise; buys mirror this), said in plain words.
 * The order it places passes the same checks as a normal order (checkTrigger → checkTicket: pair
 * precision, minimums, your max-notional guard), shown inline before anything is sent; the
 * confirmation setting and the duplicate and price warnings apply as in the order ticket. Nothing is
 * reserved while it waits: the funds are needed when it fires.
 */
import { useState } from 'react';
import type { OrderType, Pair, Side, TradeSettings, TriggerOrder } from '../../../../../shared/contract/trade';
import { TRIGGER_EXPIRIES } from '../../../../../shared/contract/trade';
import {
  type DuplicateGuard,
  marketBuyDecimals,
  newClientText,
  readTyped,
  type TicketDraft,
  type TicketWarning,
  ticketWarnings,
} from '../../../../../shared/trade/ticket';
import {
  checkTrigger,
  EXPIRY_WORDS,
  firesAtOnce,
  ruleFor,
  ruleWords,
  type TriggerDraft,
  type TriggerKind,
} from '../../../../../shared/trade/trigger';
import { useDeskMutation } from '../../../lib/desk';
import { formatMoney } from '../../../lib/format';
import { AmountField, Button, ConfirmDialog, ErrorNotice, Select } from '../../../ui';
import { reasonWords } from '../orders/reasons';
import { useLiveTrigger } from './useLiveTrigger';

export interface TriggerTicketProps {
  pair: Pair;
  settings: TradeSettings;
  /** Last trade price of the pair, when known (to warn that a trigger would fire at once). */
  last: string | undefined;
  /** Shared with the order ticket: the same order twice within 10 s asks first. */
  guard: DuplicateGuard;
}

const KIND_LABEL: Record<Side, Record<TriggerKind, string>> = {
  sell: { stop: 'Stop-loss', takeProfit: 'Take-profit' },
  buy: { stop: 'Stop buy', takeProfit: 'Buy the dip' },
};

const EXPIRY_OPTIONS = TRIGGER_EXPIRIES.map((s) => ({ value: String(s), label: EXPIRY_WORDS[s] ?? `${s} s` }));

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

export function TriggerTicket({ pair, settings, last, guard }: TriggerTicketProps) {
  const [side, setSide] = useState<Side>('sell');
  const [kind, setKind] = useState<TriggerKind>('stop');
  const [type, setType] = useState<OrderType>('limit');
  const [triggerPrice, setTriggerPrice] = useState('');
  const [price, setPrice] = useState('');
  const [amount, setAmount] = useState('');
  const [expiry, setExpiry] = useState(String(86_400));
  const [submitted, setSubmitted] = useState(false);
  const [review, setReview] = useState<{ draft: TriggerDraft; warnings: TicketWarning[]; atOnce?: string }>();
  const [placed, setPlaced] = useState<{ trigger: TriggerOrder; at: number } | undefined>();
  const live = useLiveTrigger(placed);
  const place = useDeskMutation('trade.placeTrigger', {
    invalidates: ['trade.triggerOrders', 'trade.openOrders', 'trade.account'],
  });

  const rule = ruleFor(kind, side);
  const marketBuy = type === 'market' && side === 'buy';
  const draft: TriggerDraft = {
    pair: pair.id,
    rule,
    triggerPrice: readTyped(triggerPrice),
    side,
    type,
    price: type === 'limit' ? readTyped(price) : '',
    amount: readTyped(amount),
  };
  const errors = checkTrigger(draft, { pair, maxNotional: settings.maxNotional });
  const shown = (field: keyof typeof errors, value: string) => (submitted || value !== '' ? errors[field] : undefined);
  const atOnce = firesAtOnce(rule, draft.triggerPrice, last);

  // The order's own warnings, with the trigger price standing in for the book it will meet.
  const asTicket = (d: TriggerDraft): TicketDraft => ({
    pair: d.pair,
    side: d.side,
    type: d.type,
    price: d.price,
    amount: d.amount,
    timeInForce: d.type === 'market' ? 'ioc' : 'gtc',
  });

  const send = (d: TriggerDraft) => {
    setReview(undefined);
    guard.remember(asTicket(d));
    setPlaced(undefined);
    place.mutate(
      {
        pair: d.pair,
        rule: d.rule,
        triggerPrice: d.triggerPrice,
        side: d.side,
        type: d.type,
        ...(d.type === 'limit' ? { price: d.price } : {}),
        amount: d.amount,
        expiresInSeconds: Number(expiry),
        text: newClientText(),
      },
      { onSuccess: (t) => setPlaced({ trigger: t, at: Date.now() }) },
    );
  };

  const submit = () => {
    setSubmitted(true);
    if (place.isPending || Object.keys(errors).length > 0) return;
    const warnings = ticketWarnings(asTicket(draft), {
      bestBid: draft.triggerPrice,
      bestAsk: draft.triggerPrice,
      deviationPercent: settings.priceDeviationPercent,
      duplicate: guard.isDuplicate(asTicket(draft)),
    }).map((w) =>
      w.kind === 'priceDeviation' ? { ...w, message: w.message.replace('from the mid', 'from the trigger price') } : w,
    );
    if (warnings.length > 0 || atOnce !== undefined || settings.confirmOrders)
      setReview({ draft, warnings, ...(atOnce ? { atOnce } : {}) });
    else send(draft);
  };

  const words = `When the last price ${ruleWords(rule)}`;

  return (
    <section className="ticket" aria-label="Stop / take-profit ticket" data-testid="trigger-ticket">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset className="ticket-toggle">
          <legend className="sr-only">Side</legend>
          {(['buy', 'sell'] as const).map((s) => (
            <button
              key={s}
              type="button"
              className={`ticket-side ticket-${s}${side === s ? ' is-on' : ''}`}
              aria-pressed={side === s}
              onClick={() => setSide(s)}
            >
              {s === 'buy' ? 'Buy' : 'Sell'} {pair.base}
            </button>
          ))}
        </fieldset>
        <fieldset className="ticket-toggle">
          <legend className="sr-only">Trigger kind</legend>
          {(['stop', 'takeProfit'] as const).map((k) => (
            <button
              key={k}
              type="button"
              className={`ticket-type${kind === k ? ' is-on' : ''}`}
              aria-pressed={kind === k}
              onClick={() => setKind(k)}
              data-testid={`trigger-kind-${k}`}
            >
              {KIND_LABEL[side][k]}
            </button>
          ))}
        </fieldset>

        <AmountField
          label={`${words} (${pair.quote})`}
          value={triggerPrice}
          precision={pair.precision}
          onChange={setTriggerPrice}
          error={shown('triggerPrice', triggerPrice)}
          suffix={pair.quote}
          hint={last ? `Last price ${formatMoney(last, pair.quote)}` : undefined}
          data-testid="trigger-price"
        />
        <p className="ticket-note" data-testid="trigger-rule">
          {words} {draft.triggerPrice ? formatMoney(draft.triggerPrice, pair.quote) : '…'}, place this order:
        </p>

        <fieldset className="ticket-toggle">
          <legend className="sr-only">Order type when triggered</legend>
          {(['limit', 'market'] as const).map((t) => (
            <button
              key={t}
              type="button"
              className={`ticket-type${type === t ? ' is-on' : ''}`}
              aria-pressed={type === t}
              onClick={() => setType(t)}
            >
              {t === 'limit' ? 'Limit' : 'Market'}
            </button>
          ))}
        </fieldset>
        {type === 'limit' ? (
          <AmountField
            label={`Limit price (${pair.quote})`}
            value={price}
            precision={pair.precision}
            onChange={setPrice}
            error={shown('price', price)}
            suffix={pair.quote}
          />
        ) : (
          <p className="ticket-note">Market order: fills at the best prices in the book when it fires.</p>
        )}
        <AmountField
          label={marketBuy ? `Spend (${pair.quote})` : `Amount (${pair.base})`}
          value={amount}
          precision={marketBuy ? marketBuyDecimals(pair) : pair.amountPrecision}
          onChange={setAmount}
          error={shown('amount', amount)}
          suffix={marketBuy ? pair.quote : pair.base}
          hint={
            pair.minBaseAmount || pair.minQuoteAmount
              ? `Minimum ${[pair.minBaseAmount && formatMoney(pair.minBaseAmount, pair.base), pair.minQuoteAmount && formatMoney(pair.minQuoteAmount, pair.quote)].filter(Boolean).join(' and ')}`
              : undefined
          }
        />
        {shown('total', amount) ? (
          <div className="field-error" role="alert">
            {errors.total}
          </div>
        ) : null}
        <Select label="Expires after" value={expiry} options={EXPIRY_OPTIONS} onChange={setExpiry} />
        {errors.pair ? (
          <div className="field-error" role="alert">
            {errors.pair}
          </div>
        ) : null}
        <p className="ticket-note">Nothing is reserved while it waits: the funds must be there when it fires.</p>

        <Button
          type="submit"
          className={side === 'buy' ? 'ticket-submit-buy' : 'ticket-submit-sell'}
          busy={place.isPending}
          data-testid="trigger-submit"
        >
          Place {KIND_LABEL[side][kind].toLowerCase()}
        </Button>
      </form>

      <div aria-live="polite" data-testid="trigger-result">
        {place.error ? <ErrorNotice error={place.error} compact /> : null}
        {live ? (
          <div
            className={`notice ${live.status === 'failed' ? 'notice-bad' : live.status === 'open' || live.status === 'fired' ? 'notice-good' : 'notice-warn'}`}
            data-testid="trigger-outcome"
            data-status={live.status}
          >
            <div className="notice-title">
              Trigger <code>{live.text || live.id}</code> {triggerStateWords(live)}
            </div>
            <div className="notice-text">
              When the last price {ruleWords(live.rule)} {formatMoney(live.triggerPrice, pair.quote)}:{' '}
              {describeTriggerOrder(live, pair)}.
            </div>
          </div>
        ) : null}
      </div>

      <ConfirmDialog
        open={review !== undefined}
        title={review?.warnings.length || review?.atOnce ? 'Check this trigger' : 'Confirm trigger'}
        confirmLabel={review?.warnings.length || review?.atOnce ? 'Place anyway' : 'Place trigger'}
        onCancel={() => setReview(undefined)}
        onConfirm={() => review && send(review.draft)}
        testId="trigger-confirm"
      >
        {review ? (
          <>
            <p>
              When the last price of {pair.id} {ruleWords(review.draft.rule)}{' '}
              {formatMoney(review.draft.triggerPrice, pair.quote)}: {describeTriggerOrder(review.draft, pair)}. Expires
              after {EXPIRY_WORDS[Number(expiry)] ?? `${expiry} s`}.
            </p>
            {review.warnings.length > 0 || review.atOnce ? (
              <ul className="ticket-warnings" data-testid="trigger-warnings">
                {review.atOnce ? <li data-kind="atOnce">{review.atOnce}</li> : null}
                {review.warnings.map((w) => (
                  <li key={w.kind} data-kind={w.kind}>
                    {w.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
