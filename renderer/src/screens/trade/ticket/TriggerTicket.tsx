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
  newClientText,
  readTyped,
  type TicketDraft,
  ticketWarnings,
} from '../../../../../shared/trade/ticket';
import {
  checkTrigger,
  EXPIRY_WORDS,
  firesAtOnce,
  ruleFor,
  ruleWords,
  type TriggerDraft,
  type TriggerErrors,
  type TriggerKind,
} from '../../../../../shared/trade/trigger';
import { useDeskMutation } from '../../../lib/desk';
import { formatMoney } from '../../../lib/format';
import { FieldError, RetryCountdown, Select } from '../../../ui';
import { describeTriggerOrder, pairPriceText, triggerStateWords } from '../orders/triggerWords';
import { OrderAmountField, OrderPriceField, PriceField } from './parts/OrderFields';
import { ReviewDialog } from './parts/ReviewDialog';
import { ResultNotice, SubmitButton, TicketFrame, TicketResult } from './parts/TicketFrame';
import { OrderTypeToggle, SideToggle, TicketToggle } from './parts/TicketToggle';
import { useLiveTrigger } from './useLiveTrigger';
import { useTicketSubmit } from './useTicketSubmit';

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

/** The order a trigger places, as a ticket draft (what the duplicate guard and the order's warnings read). */
const asTicket = (d: TriggerDraft): TicketDraft => ({
  pair: d.pair,
  side: d.side,
  type: d.type,
  price: d.price,
  amount: d.amount,
  timeInForce: d.type === 'market' ? 'ioc' : 'gtc',
});

const EXPIRY_OPTIONS = TRIGGER_EXPIRIES.map((s) => ({ value: String(s), label: EXPIRY_WORDS[s] ?? `${s} s` }));

export function TriggerTicket({ pair, settings, last, guard }: TriggerTicketProps) {
  const [side, setSide] = useState<Side>('sell');
  const [kind, setKind] = useState<TriggerKind>('stop');
  const [type, setType] = useState<OrderType>('limit');
  const [triggerPrice, setTriggerPrice] = useState('');
  const [price, setPrice] = useState('');
  const [amount, setAmount] = useState('');
  const [expiry, setExpiry] = useState(String(86_400));
  const [placed, setPlaced] = useState<{ trigger: TriggerOrder; at: number } | undefined>();
  const live = useLiveTrigger(placed);
  const place = useDeskMutation('trade.placeTrigger', {
    invalidates: ['trade.triggerOrders', 'trade.openOrders', 'trade.account'],
  });

  const rule = ruleFor(kind, side);
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

  const send = (d: TriggerDraft) => {
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

  const { shown, submit, review, cancelReview, confirmReview } = useTicketSubmit<TriggerDraft, keyof TriggerErrors>({
    errors,
    blocked: place.isPending,
    guard,
    orderOf: asTicket,
    confirmEvery: settings.confirmOrders,
    warningsOf: (d, duplicate) => {
      // A trigger the last price already meets fires at once: asked first, above the order's own warnings.
      const atOnce = firesAtOnce(d.rule, d.triggerPrice, last);
      return [
        ...(atOnce ? [{ kind: 'atOnce', message: atOnce }] : []),
        // The order's own warnings, with the trigger price standing in for the book it will meet.
        ...ticketWarnings(asTicket(d), {
          scale: pair,
          bestBid: d.triggerPrice,
          bestAsk: d.triggerPrice,
          deviationPercent: settings.priceDeviationPercent,
          duplicate,
        }).map((w) =>
          w.kind === 'priceDeviation'
            ? { ...w, message: w.message.replace('from the mid', 'from the trigger price') }
            : w,
        ),
      ];
    },
    send,
  });

  const words = `When the last price ${ruleWords(rule)}`;

  return (
    <TicketFrame
      label="Stop / take-profit ticket"
      testId="trigger-ticket"
      onSubmit={() => submit(draft)}
      after={
        <>
          <TicketResult testId="trigger-result" error={place.error}>
            {place.error ? <RetryCountdown error={place.error} /> : null}
            {live ? (
              <ResultNotice
                tone={
                  live.status === 'failed' ? 'bad' : live.status === 'open' || live.status === 'fired' ? 'good' : 'warn'
                }
                data-testid="trigger-outcome"
                data-status={live.status}
                heading={
                  <>
                    Trigger <code>{live.text || live.id}</code> {triggerStateWords(live)}
                  </>
                }
                lines={[
                  `When the last price ${ruleWords(live.rule)} ${pairPriceText(live.triggerPrice, pair)}: ${describeTriggerOrder(live, pair)}.`,
                ]}
              />
            ) : null}
          </TicketResult>
          <ReviewDialog
            noun="trigger"
            review={review}
            onCancel={cancelReview}
            onConfirm={confirmReview}
            testId="trigger-confirm"
            warningsTestId="trigger-warnings"
            summary={(d) => (
              <p>
                When the last price of {pair.id} {ruleWords(d.rule)} {pairPriceText(d.triggerPrice, pair)}:{' '}
                {describeTriggerOrder(d, pair)}. Expires after {EXPIRY_WORDS[Number(expiry)] ?? `${expiry} s`}.
              </p>
            )}
          />
        </>
      }
    >
      <SideToggle base={pair.base} side={side} onChange={setSide} />
      <TicketToggle
        legend="Trigger kind"
        value={kind}
        onChange={setKind}
        choices={(['stop', 'takeProfit'] as const).map((k) => ({
          value: k,
          label: KIND_LABEL[side][k],
          className: 'ticket-type',
          testId: `trigger-kind-${k}`,
        }))}
      />

      <PriceField
        pair={pair}
        label={words}
        value={triggerPrice}
        onChange={setTriggerPrice}
        error={shown('triggerPrice', triggerPrice)}
        hint={last ? `Last price ${formatMoney(last, pair.quote)}` : undefined}
        data-testid="trigger-price"
      />
      <p className="ticket-note" data-testid="trigger-rule">
        {words} {draft.triggerPrice ? formatMoney(draft.triggerPrice, pair.quote) : '…'}, place this order:
      </p>

      <OrderTypeToggle legend="Order type when triggered" type={type} onChange={setType} />
      <OrderPriceField
        pair={pair}
        type={type}
        label="Limit price"
        marketNote="Market order: fills at the best prices in the book when it fires."
        value={price}
        onChange={setPrice}
        error={shown('price', price)}
      />
      <OrderAmountField
        pair={pair}
        side={side}
        type={type}
        value={amount}
        onChange={setAmount}
        error={shown('amount', amount)}
      />
      {/* No total field: the check of the order's value shows here once an amount is typed. */}
      <FieldError message={shown('total', amount)} />
      <Select label="Expires after" value={expiry} options={EXPIRY_OPTIONS} onChange={setExpiry} />
      <FieldError message={errors.pair} />
      <p className="ticket-note">Nothing is reserved while it waits: the funds must be there when it fires.</p>

      <SubmitButton side={side} busy={place.isPending} data-testid="trigger-submit">
        Place {KIND_LABEL[side][kind].toLowerCase()}
      </SubmitButton>
    </TicketFrame>
  );
}
