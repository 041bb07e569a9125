/**
 * Order history: the user's finished orders (last 7 days, newest first) with a filter by pair (the
 * screen's pair by default, all pairs, or another), side and status, and the unit of every amount:
 * prices and totals in the pair's quote currency, amounts in its base currency, the fee in the
 * currency it was paid in. "Export CSV" saves the rows the filter shows.
 */
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import type { Order, Pair } from '../../../../../shared/contract/trade';
import { useDeskQuery } from '../../../lib/desk';
import { formatMoneyOrText, formatValue, isDecimalString, zoneLabel } from '../../../lib/format';
import { usePrefs } from '../../../lib/prefs';
import {
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  Loading,
  Select,
  Table,
  TBody,
  Td,
  THead,
  Th,
  Time,
  Tr,
} from '../../../ui';
import { describeOutcome } from '../ticket/outcome';
import { ordersCsv, tradeCsvName } from './csv';
import { BaseAmount, baseAlignment, pairWords, priceText, sideClass, sideWords } from './parts/ListParts';

export type HistoryStatus = 'filled' | 'partial' | 'cancelled';

export interface HistoryFilter {
  side: 'all' | 'buy' | 'sell';
  status: 'all' | HistoryStatus;
}

const isZero = (value: string) => !isDecimalString(value) || new Decimal(value).isZero();

/** Filled in full, filled in part then ended (cancelled, IOC rest, STP…), or ended with nothing filled. */
export const historyStatus = (order: Order): HistoryStatus => {
  if (order.finishAs === 'filled' || (order.status === 'closed' && isZero(order.left))) return 'filled';
  return isZero(order.filledAmount) ? 'cancelled' : 'partial';
};

export const filterHistory = (orders: readonly Order[], filter: HistoryFilter): Order[] =>
  orders.filter(
    (o) =>
      (filter.side === 'all' || o.side === filter.side) &&
      (filter.status === 'all' || historyStatus(o) === filter.status),
  );

const STATUS_OPTIONS: { value: HistoryFilter['status']; label: string }[] = [
  { value: 'all', label: 'Any status' },
  { value: 'filled', label: 'Filled' },
  { value: 'partial', label: 'Partly filled' },
  { value: 'cancelled', label: 'Cancelled, nothing filled' },
];
const SIDE_OPTIONS: { value: HistoryFilter['side']; label: string }[] = [
  { value: 'all', label: 'Buy and sell' },
  { value: 'buy', label: 'Buy' },
  { value: 'sell', label: 'Sell' },
];

/** The most orders the platform gives in one page (the contract's limit). */
const LIMIT = 100;
/** The pair filter's value for "the pair on screen" (it follows the screen's pair). */
const CURRENT = '';
const ALL = '*';

/** Base and quote of an order's pair: from the pair list, else from its id (BASE_QUOTE). */
const unitsOf = (id: string, pairs: ReadonlyMap<string, Pair>) => {
  const info = pairs.get(id);
  const [base = '', quote = ''] = id.split('_');
  return { base: info?.base ?? base, quote: info?.quote ?? quote, info };
};

/** A computed quote value (a total) at the quote's display precision; a text that is not a number as it came. */
const quoteValue = (value: string, quote: string, unit: boolean) =>
  isDecimalString(value) ? formatValue(value, quote, { unit }) : value;

export function OrderHistory({ pair, pairs }: { pair: string; pairs: ReadonlyMap<string, Pair> }) {
  const zone = usePrefs((s) => s.timeZone);
  const [pairChoice, setPairChoice] = useState(CURRENT);
  const [filter, setFilter] = useState<HistoryFilter>({ side: 'all', status: 'all' });
  const shownPair = pairChoice === CURRENT ? pair : pairChoice;
  const scope = shownPair === ALL ? { limit: LIMIT } : { pair: shownPair, limit: LIMIT };
  const history = useDeskQuery(['trade.orderHistory', scope]);
  const rows = useMemo(() => filterHistory(history.data ?? [], filter), [history.data, filter]);
  const pairOptions = useMemo(
    () => [
      { value: CURRENT, label: `${pair.replace('_', ' / ')} (this pair)` },
      { value: ALL, label: 'All pairs' },
      ...[...pairs.keys()]
        .filter((id) => id !== pair)
        .sort()
        .map((id) => ({ value: id, label: id.replace('_', ' / ') })),
    ],
    [pairs, pair],
  );
  // One pair: its units head the columns; all pairs: each cell names its own.
  const one = shownPair === ALL ? undefined : unitsOf(shownPair, pairs);
  const unit = (kind: 'quote' | 'base') => (one ? one[kind] : kind);
  // All pairs: each cell names its unit; one pair: the column titles do.
  const units = one === undefined;
  const align = {
    amount: baseAlignment(rows.map((o) => [o.amount, unitsOf(o.pair, pairs).info] as const)),
    filled: baseAlignment(rows.map((o) => [o.filledAmount, unitsOf(o.pair, pairs).info] as const)),
  };

  return (
    <div className="order-history">
      <div className="orders-toolbar">
        <fieldset className="filters" data-testid="history-filters">
          <legend className="sr-only">Order history filters</legend>
          <Select
            label="Pair"
            value={pairChoice}
            options={pairOptions}
            onChange={setPairChoice}
            data-testid="history-pair"
          />
          <Select
            label="Side"
            value={filter.side}
            options={SIDE_OPTIONS}
            onChange={(side) => setFilter((f) => ({ ...f, side }))}
            data-testid="history-side"
          />
          <Select
            label="Status"
            value={filter.status}
            options={STATUS_OPTIONS}
            onChange={(status) => setFilter((f) => ({ ...f, status }))}
            data-testid="history-status"
          />
        </fieldset>
        {rows.length > 0 ? (
          <ExportCsvButton
            testId="order-history-export"
            build={() => ({
              fileName: tradeCsvName('orders', shownPair === ALL ? 'all' : shownPair),
              csv: ordersCsv(rows, zone),
            })}
          />
        ) : null}
      </div>
      {history.isLoading ? <Loading /> : null}
      {history.error ? <ErrorNotice error={history.error} onRetry={() => void history.refetch()} /> : null}
      {history.data && history.data.length === 0 ? <EmptyState title="No finished orders in the last 7 days" /> : null}
      {history.data && history.data.length > 0 && rows.length === 0 ? (
        <EmptyState title="No order matches this filter" />
      ) : null}
      {rows.length > 0 ? (
        <Table caption="Order history" testId="order-history">
          <THead>
            <Tr>
              <Th>Finished ({zoneLabel(zone)})</Th>
              <Th>Pair</Th>
              <Th>Side</Th>
              <Th>Type</Th>
              <Th numeric>Price ({unit('quote')})</Th>
              <Th numeric>Amount ({unit('base')})</Th>
              <Th numeric>Filled ({unit('base')})</Th>
              <Th numeric>Avg price ({unit('quote')})</Th>
              <Th numeric>Total ({unit('quote')})</Th>
              <Th numeric>Fee (its currency)</Th>
              <Th>Outcome</Th>
              <Th>Client id</Th>
            </Tr>
          </THead>
          <TBody>
            {rows.map((o) => {
              const { base, quote, info } = unitsOf(o.pair, pairs);
              const filled = !isZero(o.filledAmount);
              return (
                <Tr
                  key={o.id}
                  data-testid="history-order"
                  data-text={o.text}
                  data-finish={o.finishAs}
                  data-pair={o.pair}
                  data-side={o.side}
                  data-status={historyStatus(o)}
                >
                  <Td>
                    <Time ms={o.updateTimeMs} />
                  </Td>
                  <Td className="nowrap">{pairWords(o.pair)}</Td>
                  <Td className={sideClass(o.side)}>{sideWords(o.side)}</Td>
                  <Td className="nowrap">
                    {o.type === 'market' ? 'Market' : 'Limit'} {o.timeInForce.toUpperCase()}
                  </Td>
                  <Td numeric>{o.type === 'market' ? 'market' : priceText(o.price, info, units)}</Td>
                  <Td numeric>
                    {/* A market buy's amount is the quote it may spend. */}
                    {o.type === 'market' && o.side === 'buy' ? (
                      quoteValue(o.amount, quote, true)
                    ) : (
                      <BaseAmount value={o.amount} pair={info} alignTo={align.amount} />
                    )}
                    {units && !(o.type === 'market' && o.side === 'buy') ? ` ${base}` : null}
                  </Td>
                  <Td numeric>
                    <BaseAmount value={o.filledAmount} pair={info} alignTo={align.filled} />
                    {units ? ` ${base}` : null}
                  </Td>
                  <Td numeric>{filled ? priceText(o.avgDealPrice, info, units) : '—'}</Td>
                  <Td numeric>{quoteValue(o.filledTotal, quote, units)}</Td>
                  <Td numeric>{filled || !isZero(o.fee) ? formatMoneyOrText(o.fee, o.feeCurrency) : '—'}</Td>
                  <Td className="outcome">{describeOutcome(o)}</Td>
                  <Td>
                    <code>{o.text}</code>
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      ) : null}
    </div>
  );
}
