/**
 * The user's orders: open orders (this pair or all pairs) with cancel, cancel all and amend;
 * order history; own trades. Refreshed when main reports a change (placed, cancelled, filled).
 * An amendment passes the same checks as a new order (checkAmend, the price warning of
 * ticketWarnings) before it is sent, and main checks it again.
 */
import { useState } from 'react';
import type { Order, Pair, TradeSettings } from '../../../../../shared/contract/trade';
import {
  type AmendChange,
  amendedDraft,
  checkAmend,
  readTyped,
  ticketWarnings,
} from '../../../../../shared/trade/ticket';
import { useDeskMutation, useDeskQuery } from '../../../lib/desk';
import { formatMoneyOrText, zoneLabel } from '../../../lib/format';
import { usePrefs } from '../../../lib/prefs';
import {
  AmountField,
  Button,
  Dialog,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  FieldError,
  Loading,
  Notice,
  RetryCountdown,
  Table,
  Tabs,
  TBody,
  Td,
  THead,
  Th,
  Time,
  Tr,
} from '../../../ui';
import { WarningList } from '../ticket/parts/ReviewDialog';
import { ordersCsv, tradeCsvName, tradesCsv } from './csv';
import { OrderHistory } from './OrderHistory';
import {
  BaseAmount,
  baseAlignment,
  CancelButton,
  ClientIdCell,
  ListStatus,
  pairWords,
  priceText,
  sideClass,
  sideWords,
} from './parts/ListParts';
import { OpenList } from './parts/OpenList';

type Tab = 'open' | 'history' | 'trades';

/** Best bid and ask of the pair whose live book the screen shows. */
export interface LiveQuotes {
  pair: string;
  bestBid: string | undefined;
  bestAsk: string | undefined;
}

interface AmendDialogProps {
  order: Order;
  pair: Pair | undefined;
  settings: TradeSettings;
  live: LiveQuotes;
  onClose: () => void;
}

function AmendDialog({ order, pair, settings, live, onClose }: AmendDialogProps) {
  const [price, setPrice] = useState(order.price);
  const [amount, setAmount] = useState(order.amount);
  // Set when the trader has seen the warnings of this very change; any edit asks again.
  const [reviewing, setReviewing] = useState(false);
  // Main's trade.ordersChanged carries the amended order; the screen applies it (trade/index.tsx).
  const amend = useDeskMutation('trade.amendOrder', { onSuccess: onClose });
  const account = useDeskQuery(['trade.account', { pair: order.pair }]);
  // Another pair's order has no live book here: its ticker's best bid and ask stand in.
  const tickers = useDeskQuery(['trade.tickers', {}], { enabled: order.pair !== live.pair });
  const ticker = tickers.data?.find((t) => t.pair === order.pair);
  const bestBid = order.pair === live.pair ? live.bestBid : ticker?.highestBid;
  const bestAsk = order.pair === live.pair ? live.bestAsk : ticker?.lowestAsk;
  // Typed "65,000" is 65000: the change is read, not compared as text.
  const newPrice = readTyped(price);
  const newAmount = readTyped(amount);
  const changedPrice = newPrice !== readTyped(order.price);
  const changedAmount = newAmount !== readTyped(order.amount);
  const change: AmendChange = {
    ...(changedPrice ? { price: newPrice } : {}),
    ...(changedAmount ? { amount: newAmount } : {}),
  };
  const balances = account.data;
  const available = balances ? (order.side === 'buy' ? balances.quote : balances.base).available : undefined;
  const errors = pair
    ? checkAmend(order, change, {
        pair,
        inStpGroup: false,
        maxNotional: settings.maxNotional,
        ...(available !== undefined ? { available } : {}),
      })
    : {};
  const valid = Object.keys(errors).length === 0;
  // Only a new price can be far from the mid; a resting order's own price was accepted when placed.
  const warnings =
    changedPrice && valid
      ? ticketWarnings(amendedDraft(order, change), {
          scale: pair ?? { precision: 8, quote: '' },
          ...(bestBid ? { bestBid } : {}),
          ...(bestAsk ? { bestAsk } : {}),
          deviationPercent: settings.priceDeviationPercent,
          duplicate: false,
        })
      : [];
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setReviewing(false);
  };
  const submit = () => {
    if (!valid) return;
    if (warnings.length > 0 && !reviewing) {
      setReviewing(true);
      return;
    }
    amend.mutate({ pair: order.pair, orderId: order.id, ...change });
  };
  const asking = reviewing && warnings.length > 0;
  return (
    <Dialog
      open
      title={`Amend order ${order.text || order.id}`}
      onClose={onClose}
      busy={amend.isPending}
      size="sm"
      testId="amend-dialog"
      footer={
        <>
          <Button onClick={onClose} disabled={amend.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            busy={amend.isPending}
            disabled={(!changedPrice && !changedAmount) || !valid}
            data-testid="amend-submit"
            onClick={submit}
          >
            {asking ? 'Amend anyway' : 'Amend'}
          </Button>
        </>
      }
    >
      <p>Changing the price or raising the amount moves the order to the back of its price level.</p>
      <AmountField
        label="New price"
        value={price}
        onChange={edit(setPrice)}
        error={errors.price}
        {...(pair ? { precision: pair.precision } : {})}
      />
      <AmountField
        label="New amount"
        value={amount}
        onChange={edit(setAmount)}
        error={errors.amount}
        {...(pair ? { precision: pair.amountPrecision } : {})}
      />
      <FieldError message={errors.total || errors.pair} testId="amend-error" />
      {asking ? <WarningList warnings={warnings} testId="amend-warnings" /> : null}
      {amend.error ? <ErrorNotice error={amend.error} compact /> : null}
      {amend.error ? <RetryCountdown error={amend.error} /> : null}
    </Dialog>
  );
}

interface PanelProps {
  pair: string;
  pairs: Map<string, Pair>;
  settings: TradeSettings;
  live: LiveQuotes;
}

function OpenOrders({ pair, pairs, settings, live }: PanelProps) {
  const [allPairs, setAllPairs] = useState(false);
  const [amending, setAmending] = useState<Order | undefined>();
  const orders = useDeskQuery(['trade.openOrders', allPairs ? {} : { pair }]);
  const cancel = useDeskMutation('trade.cancelOrder');
  // Main's trade.ordersChanged after a cancel-all names no orders: the screen reads them again, once.
  const cancelAll = useDeskMutation('trade.cancelAll');
  return (
    <OpenList
      pair={pair}
      allPairs={allPairs}
      onAllPairsChange={setAllPairs}
      count={orders.data?.length ?? 0}
      button="Cancel all"
      testId="cancel-all"
      title="Cancel all open orders?"
      what="open order"
      cancelAll={cancelAll}
    >
      {cancel.error ? <ErrorNotice error={cancel.error} compact /> : null}
      {cancelAll.data && cancelAll.data.failed.length > 0 ? (
        <Notice tone="bad" role="alert">
          {cancelAll.data.failed.length} order(s) could not be cancelled:{' '}
          {cancelAll.data.failed.map((f) => `${f.id} (${f.label})`).join(', ')}
        </Notice>
      ) : null}
      <ListStatus list={orders} empty="No open orders" />
      {orders.data && orders.data.length > 0 ? (
        <OpenOrdersTable
          orders={orders.data}
          pairs={pairs}
          cancelling={cancel.isPending ? cancel.variables?.orderId : undefined}
          onAmend={setAmending}
          onCancel={(o) => cancel.mutate({ pair: o.pair, orderId: o.id })}
        />
      ) : null}
      {amending ? (
        <AmendDialog
          order={amending}
          pair={pairs.get(amending.pair)}
          settings={settings}
          live={live}
          onClose={() => setAmending(undefined)}
        />
      ) : null}
    </OpenList>
  );
}

/** The open orders, each written as its pair writes prices and amounts; Amend and Cancel per row. */
function OpenOrdersTable({
  orders,
  pairs,
  cancelling,
  onAmend,
  onCancel,
}: {
  orders: readonly Order[];
  pairs: ReadonlyMap<string, Pair>;
  /** The order whose cancel is under way. */
  cancelling: string | undefined;
  onAmend: (order: Order) => void;
  onCancel: (order: Order) => void;
}) {
  const zone = usePrefs((s) => s.timeZone);
  const amounts = (pick: (o: Order) => string) =>
    baseAlignment(orders.map((o) => [pick(o), pairs.get(o.pair)] as const));
  const align = {
    amount: amounts((o) => o.amount),
    filled: amounts((o) => o.filledAmount),
    left: amounts((o) => o.left),
  };
  return (
    <Table caption="Open orders" testId="open-orders">
      <THead>
        <Tr>
          <Th>Time ({zoneLabel(zone)})</Th>
          <Th>Pair</Th>
          <Th>Side</Th>
          <Th numeric>Price</Th>
          <Th numeric>Amount</Th>
          <Th numeric>Filled</Th>
          <Th numeric>Left</Th>
          <Th>Client id</Th>
          <Th>Actions</Th>
        </Tr>
      </THead>
      <TBody>
        {orders.map((o) => {
          const pair = pairs.get(o.pair);
          return (
            <Tr key={o.id} data-testid="open-order" data-order-id={o.id} data-text={o.text}>
              <Td>
                <Time ms={o.createTimeMs} />
              </Td>
              <Td className="nowrap">{pairWords(o.pair)}</Td>
              <Td className={sideClass(o.side)}>{sideWords(o.side)}</Td>
              <Td numeric>{priceText(o.price, pair)}</Td>
              <Td numeric>
                <BaseAmount value={o.amount} pair={pair} alignTo={align.amount} />
              </Td>
              <Td numeric>
                <BaseAmount value={o.filledAmount} pair={pair} alignTo={align.filled} />
              </Td>
              <Td numeric>
                <BaseAmount value={o.left} pair={pair} alignTo={align.left} />
              </Td>
              <ClientIdCell text={o.text} />
              <Td className="nowrap">
                <Button size="sm" onClick={() => onAmend(o)} aria-label={`Amend order ${o.text || o.id}`}>
                  Amend
                </Button>{' '}
                <CancelButton
                  what="order"
                  name={o.text || o.id}
                  busy={cancelling === o.id}
                  onCancel={() => onCancel(o)}
                />
              </Td>
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}

function MyTrades({ pair, info }: { pair: string; info: Pair | undefined }) {
  const zone = usePrefs((s) => s.timeZone);
  const trades = useDeskQuery(['trade.myTrades', { pair, limit: 50 }]);
  if (trades.isLoading) return <Loading />;
  if (trades.error) return <ErrorNotice error={trades.error} onRetry={() => void trades.refetch()} />;
  if (!trades.data?.length) return <EmptyState title="No trades in the last 7 days" />;
  const rows = trades.data;
  const alignTo = baseAlignment(rows.map((t) => [t.amount, info] as const));
  return (
    <Table caption="My trades" testId="my-trades">
      <THead>
        <Tr>
          <Th>Time ({zoneLabel(zone)})</Th>
          <Th>Side</Th>
          <Th>Role</Th>
          <Th numeric>Price{info ? ` (${info.quote})` : ''}</Th>
          <Th numeric>Amount{info ? ` (${info.base})` : ''}</Th>
          <Th numeric>Fee</Th>
          <Th>Order</Th>
        </Tr>
      </THead>
      <TBody>
        {rows.map((t) => (
          <Tr key={t.id} data-testid="my-trade">
            <Td>
              <Time ms={t.createTimeMs} />
            </Td>
            <Td className={sideClass(t.side)}>{sideWords(t.side)}</Td>
            <Td>{t.role === 'maker' ? 'Maker' : t.role === 'taker' ? 'Taker' : t.role}</Td>
            <Td numeric>{priceText(t.price, info)}</Td>
            <Td numeric>
              <BaseAmount value={t.amount} pair={info} alignTo={alignTo} />
            </Td>
            <Td numeric>{formatMoneyOrText(t.fee, t.feeCurrency)}</Td>
            <Td>
              <code>{t.text || t.orderId}</code>
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/**
 * "Export CSV" of the order history or own trades shown below it (the same query, so the same
 * rows), times in the display time zone named in the column titles (./csv.ts).
 */
function ExportTab({ tab, pair }: { tab: 'history' | 'trades'; pair: string }) {
  const zone = usePrefs((s) => s.timeZone);
  const history = useDeskQuery(['trade.orderHistory', { pair, limit: 50 }], { enabled: tab === 'history' });
  const trades = useDeskQuery(['trade.myTrades', { pair, limit: 50 }], { enabled: tab === 'trades' });
  const rows = tab === 'history' ? history.data : trades.data;
  if (!rows?.length) return null;
  return (
    <div className="orders-export">
      <ExportCsvButton
        testId={tab === 'history' ? 'order-history-export' : 'my-trades-export'}
        build={() =>
          tab === 'history'
            ? { fileName: tradeCsvName('orders', pair), csv: ordersCsv(history.data ?? [], zone) }
            : { fileName: tradeCsvName('trades', pair), csv: tradesCsv(trades.data ?? [], zone) }
        }
      />
    </div>
  );
}

export function OrdersPanel({ pair, pairs, settings, live }: PanelProps) {
  const [tab, setTab] = useState<Tab>('open');
  return (
    <section className="orders-panel" aria-label="My orders and trades">
      <Tabs
        label="Orders"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'open', label: 'Open orders' },
          { id: 'history', label: 'Order history' },
          { id: 'trades', label: 'My trades' },
        ]}
      >
        {tab === 'open' ? <OpenOrders pair={pair} pairs={pairs} settings={settings} live={live} /> : null}
        {/* The order history exports the rows its filter shows (./OrderHistory.tsx). */}
        {tab === 'trades' ? <ExportTab tab={tab} pair={pair} /> : null}
        {tab === 'history' ? <OrderHistory pair={pair} pairs={pairs} /> : null}
        {tab === 'trades' ? <MyTrades pair={pair} info={pairs.get(pair)} /> : null}
      </Tabs>
    </section>
  );
}
