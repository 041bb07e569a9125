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
} from '../../../../../shared/contract/trade';
import {
  checkTicket,
  type DuplicateGuard,
  feePreview,
  linkTicket,
  marketBuyDecimals,
  newClientText,
  readTyped,
  shareOfAvailable,
  switchTicket,
  type TicketDraft,
  type TicketNumbers,
  type TicketWarning,
  ticketWarnings,
} from '../../../../../shared/trade/ticket';
import { useDeskMutation } from '../../../lib/desk';
import { applyOrders } from '../../../lib/eventCache';
import { formatMoney } from '../../../lib/format';
import { AmountField, Button, ConfirmDialog, ErrorNotice, RetryCountdown, Select } from '../../../ui';
import { useTradeUi } from '../store';
import { describeOutcome } from './outcome';
import { useLiveOrder } from './useLiveOrder';
import { useUnconfirmedOrder } from './useUnconfirmedOrder';

export interface OrderTicketProps {
  pair: Pair;
  account: TradeAccount | undefined;
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

export function OrderTicket({ pair, account, settings, bestBid, bestAsk, picked, guard }: OrderTicketProps) {
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
  const [submitted, setSubmitted] = useState(false);
  const [review, setReview] = useState<{ draft: TicketDraft; warnings: TicketWarning[] } | undefined>();
  const [placedAt, setPlacedAt] = useState<{ order: Order; at: number } | undefined>();
  const setPlaced = (order: Order | undefined) => setPlacedAt(order ? { order, at: Date.now() } : undefined);
  const placed = useLiveOrder(placedAt);

  const setUnconfirmed = useTradeUi((s) => s.setUnconfirmed);
  const queries = useQueryClient();
  const place = useDeskMutation('trade.placeOrder', {
    // No invalidation: main's trade.ordersChanged carries the placed order and the screen applies it,
    // reading the balances once (trade/index.tsx).
    // Here rather than in mutate(): it must run even when the ticket was closed meanwhile.
    onError: (error, input) => {
      if (error.code === 'OUTCOME_UNKNOWN' && input.text)
        setUnconfirmed(input.pair, { text: input.text, since: Date.now(), notFound: false });
    },
  });
  const unconfirmed = useUnconfirmedOrder(pair.id, setPlaced);
  const checking = unconfirmed !== undefined && !unconfirmed.notFound;
  // An unknown outcome is told by the checking line below instead, then by what the check found.
  const placeError = place.error?.code === 'OUTCOME_UNKNOWN' ? undefined : place.error;

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

  const inStpGroup = account?.stpGroupId != null;
  const marketBuy = type === 'market' && side === 'buy';
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
  // Before the first submit, "Enter a price/amount" on empty fields would only nag.
  const shown = (field: keyof typeof errors, value: string) => (submitted || value !== '' ? errors[field] : undefined);
  const fee = account
    ? feePreview(draft, pair, account, { ...(bestBid ? { bestBid } : {}), ...(bestAsk ? { bestAsk } : {}) })
    : undefined;

  const send = (d: TicketDraft) => {
    setReview(undefined);
    guard.remember(d);
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
        onSuccess: (order) => {
          // In the open orders before the result card follows it (main's event may come a moment later).
          applyOrders(queries, [order]);
          setPlaced(order);
        },
      },
    );
  };

  const submit = () => {
    setSubmitted(true);
    if (place.isPending || checking) return;
    if (Object.keys(errors).length > 0) return;
    const warnings = ticketWarnings(draft, {
      ...(bestBid ? { bestBid } : {}),
      ...(bestAsk ? { bestAsk } : {}),
      deviationPercent: settings.priceDeviationPercent,
      duplicate: guard.isDuplicate(draft),
    });
    if (warnings.length > 0 || settings.confirmOrders) setReview({ draft, warnings });
    else send(draft);
  };

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
    <section className="ticket" aria-label="Order ticket" data-testid="order-ticket">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset className="ticket-toggle">
          <legend className="sr-only">Side</legend>
          <button
            type="button"
            className={`ticket-side ticket-buy${side === 'buy' ? ' is-on' : ''}`}
            aria-pressed={side === 'buy'}
            onClick={() => setSide('buy')}
          >
            Buy {pair.base}
          </button>
          <button
            type="button"
            className={`ticket-side ticket-sell${side === 'sell' ? ' is-on' : ''}`}
            aria-pressed={side === 'sell'}
            onClick={() => setSide('sell')}
          >
            Sell {pair.base}
          </button>
        </fieldset>
        <fieldset className="ticket-toggle">
          <legend className="sr-only">Order type</legend>
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
            label={`Price (${pair.quote})`}
            value={numbers.price}
            precision={pair.precision}
            onChange={(v) => setNumbers((n) => linkTicket(pair, n, 'price', v))}
            error={shown('price', numbers.price)}
            suffix={pair.quote}
          />
        ) : (
          <p className="ticket-note">Market order: fills at the best prices in the book now.</p>
        )}
        <AmountField
          label={marketBuy ? `Spend (${pair.quote})` : `Amount (${pair.base})`}
          value={numbers.amount}
          precision={marketBuy ? marketBuyDecimals(pair) : pair.amountPrecision}
          onChange={(v) => setNumbers((n) => linkTicket(pair, n, 'amount', v))}
          error={shown('amount', numbers.amount)}
          suffix={marketBuy ? pair.quote : pair.base}
          hint={
            pair.minBaseAmount || pair.minQuoteAmount
              ? `Minimum ${[pair.minBaseAmount && formatMoney(pair.minBaseAmount, pair.base), pair.minQuoteAmount && formatMoney(pair.minQuoteAmount, pair.quote)].filter(Boolean).join(' and ')}`
              : undefined
          }
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
        ) : errors.total ? (
          <div className="field-error" role="alert">
            {errors.total}
          </div>
        ) : null}

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
        {errors.pair ? (
          <div className="field-error" role="alert">
            {errors.pair}
          </div>
        ) : null}

        <Button
          type="submit"
          className={side === 'buy' ? 'ticket-submit-buy' : 'ticket-submit-sell'}
          busy={place.isPending}
          disabled={checking}
          data-testid="ticket-submit"
        >
          {side === 'buy' ? 'Buy' : 'Sell'} {pair.base}
        </Button>
      </form>

      <div aria-live="polite" data-testid="ticket-result">
        {placeError ? <ErrorNotice error={placeError} compact /> : null}
        {placeError ? <RetryCountdown error={placeError} /> : null}
        {checking ? (
          <div className="notice notice-warn" data-testid="ticket-checking">
            <div className="notice-title">
              Checking whether order <code>{unconfirmed.text}</code> was placed…
            </div>
            <div className="notice-text">
              The platform did not confirm it. New orders wait until it is found, or until the platform shows it was not
              placed (about a minute).
            </div>
            {place.error?.requestId ? (
              <div className="notice-text">
                Request id <code>{place.error.requestId}</code>
              </div>
            ) : null}
          </div>
        ) : null}
        {unconfirmed?.notFound ? (
          <div className="notice" data-testid="ticket-not-found">
            <div className="notice-title">
              Not found: order <code>{unconfirmed.text}</code> was not placed.
            </div>
            <div className="notice-text">You may place it again.</div>
          </div>
        ) : null}
        {placed ? (
          <div className="notice notice-good" data-testid="ticket-outcome" data-finish={placed.finishAs}>
            <div className="notice-title">
              Order <code>{placed.text || placed.id}</code>
            </div>
            <div className="notice-text">{describeOutcome(placed)}</div>
          </div>
        ) : null}
      </div>

      <ConfirmDialog
        open={review !== undefined}
        title={review?.warnings.length ? 'Check this order' : 'Confirm order'}
        confirmLabel={review?.warnings.length ? 'Place anyway' : 'Place order'}
        onCancel={() => setReview(undefined)}
        onConfirm={() => review && send(review.draft)}
        testId="ticket-confirm"
      >
        {review ? (
          <>
            <p>
              {review.draft.side === 'buy' ? 'Buy' : 'Sell'}{' '}
              {formatMoney(
                review.draft.amount,
                review.draft.type === 'market' && review.draft.side === 'buy' ? pair.quote : pair.base,
              )}{' '}
              {review.draft.type === 'limit' ? `at ${formatMoney(review.draft.price, pair.quote)}` : 'at market'} (
              {review.draft.timeInForce.toUpperCase()}) on {pair.id}.
            </p>
            {review.warnings.length > 0 ? (
              <ul className="ticket-warnings" data-testid="ticket-warnings">
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
