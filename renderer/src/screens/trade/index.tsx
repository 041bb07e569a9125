/**
 * The Trade screen: pair and ticker on top; the live order book, chart and recent trades, and the
 * order ticket side by side; the user's orders and trades below.
 */
import { useQueryClient } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { DEFAULT_TRADE_SETTINGS, type Order } from '../../../../shared/contract/trade';
import { groupingSteps } from '../../../../shared/trade/book';
import { DuplicateGuard } from '../../../../shared/trade/ticket';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { applyOrders } from '../../lib/eventCache';
import { useCoalescedRefresh } from '../../lib/useCoalescedRefresh';
import { EmptyState, ErrorNotice, Loading, PageHeader, Tabs } from '../../ui';
import { lastPriceOf } from './book/lastPrice';
import { OrderBook } from './book/OrderBook';
import { CandleChart } from './market/CandleChart';
import { DepthChart } from './market/DepthChart';
import { PairBar } from './market/PairBar';
import { RecentTrades } from './market/RecentTrades';
import { OrdersPanel } from './orders/OrdersPanel';
import { TriggerOrders } from './orders/TriggerOrders';
import { useTradeUi } from './store';
import { GuardSettings } from './ticket/GuardSettings';
import { OrderTicket } from './ticket/OrderTicket';
import { TriggerTicket } from './ticket/TriggerTicket';
import { useMarket } from './useMarket';
import './trade.css';

/**
 * The parts of the screen beside the book, memoised: the book changes up to 50 times a second
 * (streamed, 20 ms batches) and must re-render only itself, not the ticket, the orders or the chart
 * (bench/match-to-screen.ts). The ticket and the orders re-render when the best bid or ask moves.
 */
const PairBarM = memo(PairBar);
const OrderTicketM = memo(OrderTicket);
const TriggerTicketM = memo(TriggerTicket);
const GuardSettingsM = memo(GuardSettings);
const OrdersPanelM = memo(OrdersPanel);
const TriggerOrdersM = memo(TriggerOrders);
const NO_PAIRS: never[] = [];

/** What the book's status line says: live, and from where (the stream or polling), or the problem. */
const liveWords = (status: { state: string; message: string; source?: 'stream' | 'polling' }): string => {
  if (status.state !== 'live') return status.message;
  if (status.source === 'stream') return 'Live · streamed';
  // Main says why it polls (no stream for this address, or the stream is down).
  if (status.source === 'polling') return status.message.replace(/\.$/, '');
  return 'Live';
};

export default function TradeScreen() {
  const ui = useTradeUi();
  const queries = useQueryClient();
  const pairs = useDeskQuery(['trade.pairs', {}], { staleTime: 60_000 });
  const settings = useDeskQuery(['trade.settings', {}]);
  const updateSettings = useDeskMutation('trade.updateSettings', { invalidates: ['trade.settings'] });
  const pairMap = useMemo(() => new Map((pairs.data ?? []).map((p) => [p.id, p])), [pairs.data]);
  const fallbackPair = pairs.data?.find((p) => p.tradeStatus === 'tradable')?.id ?? pairs.data?.[0]?.id;
  const pairId = pairMap.has(ui.pair) ? ui.pair : (fallbackPair ?? ui.pair);
  const pair = pairMap.get(pairId);
  const market = useMarket(pair ? pairId : '', ui.candleInterval);
  const account = useDeskQuery(['trade.account', { pair: pairId }], { enabled: pair !== undefined });
  // Fee rates and the STP group: read when the pair opens; no order changes them, so no order
  // event reads them again (an order's check in main uses the same ones).
  const terms = useDeskQuery(['trade.terms', { pair: pairId }], { enabled: pair !== undefined });
  const guard = useRef(new DuplicateGuard()).current;
  const [ticketMode, setTicketMode] = useState<'order' | 'trigger'>('order');
  const [chartView, setChartView] = useState<'candles' | 'depth'>('candles');
  // Every pair's price and 24 h change for the pair picker, read only while its list is open.
  const [pickerOpen, setPickerOpen] = useState(false);
  const tickers = useDeskQuery(['trade.tickers', {}], {
    enabled: pickerOpen,
    staleTime: 5_000,
    refetchInterval: pickerOpen ? 5_000 : false,
  });
  // The spread row's last price: a new trade re-renders the spread row, not the book's levels.
  const last = useMemo(() => lastPriceOf(market.trades, market.ticker?.last), [market.trades, market.ticker?.last]);

  // Our own actions and what main sees (fills, the stream) change orders, trades and balances. An
  // event that carries the orders puts them in the open orders (lib/eventCache.ts); what it cannot
  // carry is read again, once per burst (a placement is told by its answer, the order stream and
  // the balance stream within a few milliseconds).
  const refreshSoon = useCoalescedRefresh();
  useDeskEvent('trade.ordersChanged', (change) => {
    if (change.orders === undefined) {
      refreshSoon(['trade.openOrders', 'trade.account', 'trade.orderHistory', 'trade.myTrades']);
      return;
    }
    applyOrders(queries, change.orders);
    const finished = change.reason === 'filled' || change.orders.some((o) => o.status !== 'open');
    refreshSoon(['trade.account', ...(finished ? ['trade.orderHistory', 'trade.myTrades'] : [])]);
  });
  // A fill main saw (from the stream where there is one) updates the open orders at once: it stays
  // right even while reading them back over REST fails.
  useDeskEvent('trade.orderFilled', ({ order }) => {
    const done = order.status !== 'open' || new Decimal(order.left || '0').isZero();
    queries.setQueriesData<Order[]>({ queryKey: ['trade.openOrders'] }, (list) =>
      list?.flatMap((o) => (o.id !== order.id ? [o] : done ? [] : [order])),
    );
  });

  const current = settings.data ?? DEFAULT_TRADE_SETTINGS;
  const steps = pair ? groupingSteps(pair.precision) : ['1'];
  const step = ui.steps[pairId] && steps.includes(ui.steps[pairId]) ? ui.steps[pairId] : steps[0]!;
  const bestBid = market.book.bids[0]?.[0];
  const bestAsk = market.book.asks[0]?.[0];
  const live = useMemo(() => ({ pair: pairId, bestBid, bestAsk }), [pairId, bestBid, bestAsk]);
  const { mutate: saveSettings } = updateSettings;
  const toggleFavourite = useCallback(
    (id: string) => {
      const favourites = current.favourites.includes(id)
        ? current.favourites.filter((f) => f !== id)
        : [...current.favourites, id];
      saveSettings({ ...current, favourites });
    },
    [current, saveSettings],
  );

  if (pairs.isLoading) return <Loading />;
  if (pairs.error) return <ErrorNotice error={pairs.error} onRetry={() => void pairs.refetch()} />;
  if (!pair) return <EmptyState title="No spot pairs">The platform lists no spot pairs for this profile.</EmptyState>;

  return (
    <div className="trade-screen" data-testid="trade-screen">
      <PageHeader title="Trade" subtitle="Spot orders with the live order book." />
      <PairBarM
        pairs={pairs.data ?? NO_PAIRS}
        pair={pairId}
        ticker={market.ticker}
        tickers={tickers.data}
        onOpenChange={setPickerOpen}
        favourites={current.favourites}
        onSelect={ui.setPair}
        onToggleFavourite={toggleFavourite}
      />
      {market.status.state === 'error' ? (
        <div className="notice notice-bad" role="alert">
          The live market could not start: {market.status.message}
        </div>
      ) : null}
      <div className="trade-grid">
        <OrderBook
          book={market.book}
          base={pair.base}
          quote={pair.quote}
          precision={pair.precision}
          amountPrecision={pair.amountPrecision}
          depth={ui.depth}
          step={step}
          onDepthChange={ui.setDepth}
          onStepChange={(s) => ui.setStep(pairId, s)}
          onPickPrice={ui.pickPrice}
          status={liveWords(market.status)}
          lastPrice={last.price}
          lastDirection={last.direction}
        />
        <div className="trade-middle">
          <Tabs
            label="Chart"
            value={chartView}
            onChange={setChartView}
            tabs={[
              { id: 'candles', label: 'Candles' },
              { id: 'depth', label: 'Depth' },
            ]}
          >
            {/* Only the chart shown is mounted: the depth chart costs nothing while the candles show. */}
            {chartView === 'candles' ? (
              <CandleChart
                candles={market.candles}
                interval={ui.candleInterval}
                onIntervalChange={ui.setCandleInterval}
              />
            ) : (
              <DepthChart
                book={market.book}
                base={pair.base}
                quote={pair.quote}
                precision={pair.precision}
                amountPrecision={pair.amountPrecision}
              />
            )}
          </Tabs>
          <RecentTrades
            trades={market.trades}
            base={pair.base}
            precision={pair.precision}
            amountPrecision={pair.amountPrecision}
          />
        </div>
        <div className="trade-right">
          {account.error ? <ErrorNotice error={account.error} compact onRetry={() => void account.refetch()} /> : null}
          {terms.error ? <ErrorNotice error={terms.error} compact onRetry={() => void terms.refetch()} /> : null}
          <Tabs
            label="Ticket"
            value={ticketMode}
            onChange={setTicketMode}
            tabs={[
              { id: 'order', label: 'Order' },
              { id: 'trigger', label: 'Stop / take-profit' },
            ]}
          >
            {ticketMode === 'order' ? (
              <OrderTicketM
                key={pair.id}
                pair={pair}
                account={account.data}
                terms={terms.data}
                settings={current}
                bestBid={bestBid}
                bestAsk={bestAsk}
                picked={ui.picked}
                guard={guard}
              />
            ) : (
              <TriggerTicketM
                key={pair.id}
                pair={pair}
                settings={current}
                last={market.ticker?.last || undefined}
                guard={guard}
              />
            )}
          </Tabs>
          <GuardSettingsM settings={current} onSave={saveSettings} saving={updateSettings.isPending} />
        </div>
      </div>
      <OrdersPanelM pair={pairId} pairs={pairMap} settings={current} live={live} />
      <TriggerOrdersM pair={pairId} pairs={pairMap} />
    </div>
  );
}
