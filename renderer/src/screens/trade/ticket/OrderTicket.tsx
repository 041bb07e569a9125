/**
 * The order ticket: buy/sell, limit/market, price/amount/total linked with decimal arithmetic,
 * inline checks before anything is sent (precision, minimums, balance, max notional), soft
 * warnings that need a confirmation (price far from the mid, the same order within 10 s), an
 * optional confirmation for every order and optional keyboard shortcuts. Orders are never resent
 * automatically; each carries a `t-` client id shown with its outcome. After an unknown outcome the
 * ticket stays blocked until that order is found or proven absent (useUnconfirmedOrder).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type {
  Order,
  OrderType,
  Pair,
  Side,
  StpAct,
  TimeInForce,
  TradeAccount,
  TradeSettings,
  TradeTerms,
} from '../../../../../shared/contract/trade';
import {
  amountUnitOf,
  checkTicket,
  type DuplicateGuard,
  feePreview,
  linkTicket,
  newClientText,
  readTyped,
  shareOfAvailable,
  switchTicket,
  type TicketDraft,
  type TicketErrors,
  type TicketNumbers,
  ticketWarnings,
} from '../../../../../shared/trade/ticket';
import { useDeskMutation } from '../../../lib/desk';
import { applyOrders } from '../../../lib/eventCache';
import { formatMoney } from '../../../lib/format';
import { AmountField, RetryCountdown, Select } from '../../../ui';
import { useTradeUi } from '../store';
import { describeOutcome, outcomeTone } from './outcome';
import { FieldAlert, OrderAmountField, OrderPriceField } from './parts/OrderFields';
import { ReviewDialog } from './parts/ReviewDialog';
import { ResultNotice, SubmitButton, TicketFrame, TicketResult } from './parts/TicketFrame';
import { OrderTypeToggle, SideToggle } from './parts/TicketToggle';
import { useLiveOrder } from './useLiveOrder';
import { useTicketSubmit } from './useTicketSubmit';
import { useUnconfirmedOrder } from './useUnconfirmedOrder';

export interface OrderTicketProps {
  pair: Pair;
  /** The pair's balances. */
  account: TradeAccount | undefined;
  /** Fee rates and the STP group. */
  terms: TradeTerms | undefined;
  settings: TradeSettings;
  bestBid: string | undefined;
  bestAsk: string | undefined;
  /** A price picked in the book; `seq` changes on every pick. */
  picked: { price: string; seq: number } | undefined;
  /** Shared across tickets so a pair switch does not forget recent orders. */
  guard: DuplicateGuard;
}

const TIF_LABEL: Record<TimeInForce, string> = {
  gtc: 'Good till cancelled (GTC)',
  ioc: 'Immediate or cancel (IOC)',
  poc: 'Post only (POC)',
  fok: 'Fill or kill (FOK)',
};
const STP_LABEL: Record<StpAct, string> = {
  cn: 'Cancel newest (this order)',
  co: 'Cancel oldest (my resting order)',
  cb: 'Cancel both',
};

const EMPTY: TicketNumbers = { price: '', amount: '', total: '', lastEdited: 'amount' };
const SHARES = [25, 50, 75, 100] as const;

export function OrderTicket({ pair, account, terms, settings, bestBid, bestAsk, picked, guard }: OrderTicketProps) {
  const [{ side, type, numbers }, setTicket] = useState<{ side: Side; type: OrderType; numbers: TicketNumbers }>({
    side: 'buy',
    type: 'limit',
    numbers: EMPTY,
  });
  const setNumbers = (update: (n: TicketNumbers) => TicketNumbers) =>
    setTicket((t) => ({ ...t, numbers: update(t.numbers) }));
  // The amount's unit follows the order type and side (a market buy spends USDT, everything else is
  // BTC): a change converts what can be converted exactly and clears the rest (switchTicket).
  const change = (next: { side?: Side; type?: OrderType }) =>
    setTicket((t) => {
      const to = { side: next.side ?? t.side, type: next.type ?? t.type };
      if (to.side === t.side && to.type === t.type) return t;
      return { ...to, numbers: switchTicket(pair, t.numbers, t, to) };
    });
  const setSide = (s: Side) => change({ side: s });
  const setType = (t: OrderType) => change({ type: t });
  const [tif, setTif] = useState<TimeInForce>('gtc');
  const [stpAct, setStpAct] = useState<StpAct | ''>('');
  const [placedAt, setPlacedAt] = useState<{ order: Order; at: number } | undefined>();
  const setPlaced = (order: Order | undefined) => setPlacedAt(order ? { order, at: Date.now() } : undefined);
  const placed = useLiveOrder(placedAt);

  const setUnconfirmed = useTradeUi((s) => s.setUnconfirmed);
  const queries = useQueryClient();
  /** Follows an order main could not confirm until it is found or proven absent, by its text. */
  const followUnconfirmed = (pairId: string, text: string) =>
    setUnconfirmed(pairId, { text, since: Date.now(), notFound: false });
  const place = useDeskMutation('trade.placeOrder', {
    // No invalidation: main's trade.ordersChanged carries the placed order and the screen applies it,
    // reading the balances once (trade/index.tsx).
    // Here rather than in mutate(): these must run even when the ticket was closed meanwhile.
    onSuccess: (result, input) => {
      if (result.outcome === 'unknown') followUnconfirmed(input.pair, result.text);
    },
    // The core stopped while placing it (its supervisor answers OUTCOME_UNKNOWN): the same follow-up.
    onError: (error, input) => {
      if (error.code === 'OUTCOME_UNKNOWN') followUnconfirmed(input.pair, input.text);
    },
  });
  const unconfirmed = useUnconfirmedOrder(pair.id, setPlaced);
  const checking = unconfirmed !== undefined && !unconfirmed.notFound;
  // An unknown outcome is told by the checking line below instead, then by what the check found.
  const placeError = place.error?.code === 'OUTCOME_UNKNOWN' ? undefined : place.error;
  // Placed, but main could not read it back: its words instead of the order's.
  const placedNote = place.data?.outcome === 'accepted' && place.data.order === undefined ? place.data : undefined;
  const lostRequestId = place.data?.outcome === 'unknown' ? place.data.requestId : place.error?.requestId;

  // A price clicked in the book goes into the ticket (a limit order).
  useEffect(() => {
    if (!picked) return;
    setTicket((t) => {
      const to = { side: t.side, type: 'limit' as const };
      const numbers = t.type === 'limit' ? t.numbers : switchTicket(pair, t.numbers, t, to);
      return { ...to, numbers: linkTicket(pair, numbers, 'price', picked.price) };
    });
  }, [picked, pair]);

  useEffect(() => {
    if (type === 'market' && tif !== 'ioc' && tif !== 'fok') setTif('ioc');
  }, [type, tif]);

  const inStpGroup = terms?.stpGroupId != null;
  const draft: TicketDraft = {
    pair: pair.id,
    side,
    type,
    price: type === 'limit' ? readTyped(numbers.price) : '',
    amount: readTyped(numbers.amount),
    timeInForce: tif,
    ...(stpAct && inStpGroup ? { stpAct } : {}),
  };
  const available = account ? (side === 'buy' ? account.quote.available : account.base.available) : undefined;
  const errors = checkTicket(draft, {
    pair,
    inStpGroup,
    maxNotional: settings.maxNotional,
    ...(available !== undefined ? { available } : {}),
    ...(bestBid ? { bestBid } : {}),
    ...(bestAsk ? { bestAsk } : {}),
  });
  const fee = terms
    ? feePreview(draft, pair, terms, { ...(bestBid ? { bestBid } : {}), ...(bestAsk ? { bestAsk } : {}) })
    : undefined;

  const send = (d: TicketDraft) => {
    setPlaced(undefined);
    setUnconfirmed(d.pair, undefined);
    place.mutate(
      {
        pair: d.pair,
        side: d.side,
        type: d.type,
        ...(d.type === 'limit' ? { price: d.price } : {}),
        amount: d.amount,
        timeInForce: d.timeInForce,
        ...(d.stpAct ? { stpAct: d.stpAct } : {}),
        text: newClientText(),
      },
      {
        onSuccess: ({ order }) => {
          if (order === undefined) return;
          // In the open orders before the result card follows it (main's event may come a moment later).
          applyOrders(queries, [order]);
          setPlaced(order);
        },
      },
    );
  };

  const { shown, submit, review, cancelReview, confirmReview } = useTicketSubmit<TicketDraft, keyof TicketErrors>({
    errors,
    blocked: place.isPending || checking,
    guard,
    orderOf: (d) => d,
    confirmEvery: settings.confirmOrders,
    warningsOf: (d, duplicate) =>
      ticketWarnings(d, {
        ...(bestBid ? { bestBid } : {}),
        ...(bestAsk ? { bestAsk } : {}),
        deviationPercent: settings.priceDeviationPercent,
        duplicate,
      }),
    send,
  });

  // Optional shortcuts (off by default): Alt+B buy, Alt+S sell, Alt+L limit, Alt+M market.
  // biome-ignore lint/correctness/useExhaustiveDependencies: setSide/setType use only setTicket and the pair (a ticket is keyed by its pair).
  useEffect(() => {
    if (!settings.shortcuts) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const key = event.key.toLowerCase();
      if (key === 'b') setSide('buy');
      else if (key === 's') setSide('sell');
      else if (key === 'l') setType('limit');
      else if (key === 'm') setType('market');
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [settings.shortcuts]);

  const tifOptions = useMemo(
    () =>
      (type === 'market' ? (['ioc', 'fok'] as const) : (['gtc', 'ioc', 'poc', 'fok'] as const)).map((v) => ({
        value: v,
        label: TIF_LABEL[v],
      })),
    [type],
  );

  return (
    <TicketFrame
      label="Order ticket"
      testId="order-ticket"
      onSubmit={() => submit(draft)}
      after={
        <>
          <TicketResult testId="ticket-result" error={placeError}>
            {placeError ? <RetryCountdown error={placeError} /> : null}
            {checking ? (
              <ResultNotice
                tone="warn"
                data-testid="ticket-checking"
                heading={
                  <>
                    Checking whether order <code>{unconfirmed.text}</code> was placed…
                  </>
                }
                lines={[
                  'The platform did not confirm it. New orders wait until it is found, or until the platform shows it was not placed (about a minute).',
                  lostRequestId ? (
                    <>
                      Request id <code>{lostRequestId}</code>
                    </>
                  ) : null,
                ]}
              />
            ) : null}
            {unconfirmed?.notFound ? (
              <ResultNotice
                data-testid="ticket-not-found"
                heading={
                  <>
                    Not found: order <code>{unconfirmed.text}</code> was not placed.
                  </>
                }
                lines={['You may place it again.']}
              />
            ) : null}
            {placedNote ? (
              <ResultNotice
                tone="warn"
                data-testid="ticket-placed-unread"
                heading={
                  <>
                    Order <code>{placedNote.text}</code> placed
                  </>
                }
                lines={[placedNote.note]}
              />
            ) : null}
            {placed ? (
              <ResultNotice
                tone={outcomeTone(placed)}
                data-testid="ticket-outcome"
                data-finish={placed.finishAs}
                heading={
                  <>
                    Order <code>{placed.text || placed.id}</code>
                  </>
                }
                lines={[describeOutcome(placed)]}
              />
            ) : null}
          </TicketResult>
          <ReviewDialog
            noun="order"
            review={review}
            onCancel={cancelReview}
            onConfirm={confirmReview}
            testId="ticket-confirm"
            warningsTestId="ticket-warnings"
            summary={(d) => (
              <p>
                {d.side === 'buy' ? 'Buy' : 'Sell'} {formatMoney(d.amount, amountUnitOf(pair, d.type, d.side))}{' '}
                {d.type === 'limit' ? `at ${formatMoney(d.price, pair.quote)}` : 'at market'} (
                {d.timeInForce.toUpperCase()}) on {pair.id}.
              </p>
            )}
          />
        </>
      }
    >
      <SideToggle base={pair.base} side={side} onChange={setSide} />
      <OrderTypeToggle legend="Order type" type={type} onChange={setType} />

      <OrderPriceField
        pair={pair}
        type={type}
        label="Price"
        marketNote="Market order: fills at the best prices in the book now."
        value={numbers.price}
        onChange={(v) => setNumbers((n) => linkTicket(pair, n, 'price', v))}
        error={shown('price', numbers.price)}
      />
      <OrderAmountField
        pair={pair}
        side={side}
        type={type}
        value={numbers.amount}
        onChange={(v) => setNumbers((n) => linkTicket(pair, n, 'amount', v))}
        error={shown('amount', numbers.amount)}
      />
      <fieldset className="ticket-shares" disabled={available === undefined}>
        <legend className="sr-only">Share of what is available</legend>
        {SHARES.map((percent) => (
          <button
            key={percent}
            type="button"
            className="ticket-share"
            data-testid={`ticket-share-${percent}`}
            aria-label={`${percent} % of available ${side === 'buy' ? pair.quote : pair.base}`}
            onClick={() =>
              available !== undefined &&
              setNumbers((n) => shareOfAvailable(pair, n, { type, side }, available, percent))
            }
          >
            {percent} %
          </button>
        ))}
      </fieldset>
      {type === 'limit' ? (
        <AmountField
          label={`Total (${pair.quote})`}
          value={numbers.total}
          onChange={(v) => setNumbers((n) => linkTicket(pair, n, 'total', v))}
          error={shown('total', numbers.total)}
          suffix={pair.quote}
          validate={false}
        />
      ) : (
        <FieldAlert message={errors.total} />
      )}

      <Select label="Time in force" value={tif} options={tifOptions} onChange={setTif} error={errors.timeInForce} />
      {inStpGroup ? (
        <Select
          label="Self-trade prevention"
          value={stpAct}
          options={[
            { value: '' as const, label: 'Platform default (cancel newest)' },
            ...(['cn', 'co', 'cb'] as const).map((v) => ({ value: v, label: STP_LABEL[v] })),
          ]}
          onChange={setStpAct}
          error={errors.stpAct}
        />
      ) : null}

      <dl className="ticket-facts">
        <dt>Available</dt>
        <dd data-testid="ticket-available">
          {account
            ? side === 'buy'
              ? formatMoney(account.quote.available, pair.quote)
              : formatMoney(account.base.available, pair.base)
            : '…'}
        </dd>
        <dt>Fee (estimate)</dt>
        <dd data-testid="ticket-fee">
          {fee ? `${formatMoney(fee.amount, fee.currency, { estimate: true })} (${fee.role} ${fee.rate})` : '—'}
        </dd>
      </dl>
      <FieldAlert message={errors.pair} />

      <SubmitButton side={side} busy={place.isPending} disabled={checking} data-testid="ticket-submit">
        {side === 'buy' ? 'Buy' : 'Sell'} {pair.base}
      </SubmitButton>
    </TicketFrame>
  );
}
