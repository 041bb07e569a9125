/**
 * The user's stop and take-profit orders: the open ones (pair, the rule in words, trigger price, the
 * order it will place, when it expires, cancel) and the finished ones with their outcome in plain
 * words, including the id of the order a fired trigger placed. The platform fires triggers on its
 * own, so the lists are read again every few seconds while open triggers exist; when one leaves the
 * open list, the orders, balances and history are refreshed too (its order may be among them now).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Pair, TriggerOrder } from '../../../../../shared/contract/trade';
import { ruleWords, TRIGGER_STATUS_WORDS } from '../../../../../shared/trade/trigger';
import { call, useDeskEvent, useDeskMutation, useDeskQuery } from '../../../lib/desk';
import { notify } from '../../../lib/notify';
import { EmptyState, ErrorNotice, Loading, Table, Tabs, TBody, Td, THead, Th, Time, TimeHeader, Tr } from '../../../ui';
import { CancelButton, ClientIdCell, ListStatus, pairWords, sideClass } from './parts/ListParts';
import { OpenList } from './parts/OpenList';
import { reasonWords } from './reasons';
import { describeTriggerOrder, pairPriceText, type TriggerPair } from './triggerWords';

type Tab = 'open' | 'finished';
const POLL_MS = 3000;
const REFRESH = ['trade.triggerOrders', 'trade.openOrders', 'trade.account', 'trade.orderHistory'] as const;

const unitsOf = (pairs: Map<string, Pair>, id: string): TriggerPair => {
  const p = pairs.get(id);
  const [base = '', quote = ''] = id.split('_');
  return p ?? { base, quote };
};

const when = (t: TriggerOrder, pair: TriggerPair) =>
  `Last price ${ruleWords(t.rule)} ${pairPriceText(t.triggerPrice, pair)}`;

function OpenTriggers({ pair, pairs }: { pair: string; pairs: Map<string, Pair> }) {
  const [allPairs, setAllPairs] = useState(false);
  const list = useDeskQuery(['trade.triggerOrders', { status: 'open', limit: 50, ...(allPairs ? {} : { pair }) }], {
    refetchInterval: (q) => ((q.state.data?.length ?? 0) > 0 ? POLL_MS : false),
  });
  const cancel = useDeskMutation('trade.cancelTrigger', { invalidates: ['trade.triggerOrders'] });
  const cancelAll = useDeskMutation('trade.cancelAllTriggers', { invalidates: ['trade.triggerOrders'] });

  // A trigger that left the open list fired, failed or expired: what it did shows elsewhere too.
  const queries = useQueryClient();
  const seen = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!list.data) return;
    const now = new Set(list.data.map((t) => t.id));
    const gone = [...seen.current].some((id) => !now.has(id));
    seen.current = now;
    if (gone) for (const name of REFRESH) void queries.invalidateQueries({ queryKey: [name] });
  }, [list.data, queries]);

  return (
    <OpenList
      pair={pair}
      allPairs={allPairs}
      onAllPairsChange={setAllPairs}
      count={list.data?.length ?? 0}
      button="Cancel all triggers"
      testId="cancel-all-triggers"
      title="Cancel all open trigger orders?"
      what="trigger order"
      note="Orders they already placed stay."
      cancelAll={cancelAll}
    >
      {cancel.error ? <ErrorNotice error={cancel.error} compact /> : null}
      <ListStatus list={list} empty="No open stop or take-profit orders" />
      {list.data && list.data.length > 0 ? (
        <Table caption="Open trigger orders" testId="open-triggers">
          <THead>
            <Tr>
              <Th>
                <TimeHeader>Placed</TimeHeader>
              </Th>
              <Th>Pair</Th>
              <Th>When</Th>
              <Th>Then</Th>
              <Th>
                <TimeHeader>Expires</TimeHeader>
              </Th>
              <Th>Client id</Th>
              <Th>Actions</Th>
            </Tr>
          </THead>
          <TBody>
            {list.data.map((t) => {
              const units = unitsOf(pairs, t.pair);
              return (
                <Tr key={t.id} data-testid="open-trigger" data-trigger-id={t.id} data-text={t.text}>
                  <Td>
                    <Time ms={t.createTimeMs} />
                  </Td>
                  <Td className="nowrap">{pairWords(t.pair)}</Td>
                  <Td>{when(t, units)}</Td>
                  <Td className={sideClass(t.side)}>{describeTriggerOrder(t, units)}</Td>
                  <Td>
                    <Time ms={t.expiresAtMs} />
                  </Td>
                  <ClientIdCell text={t.text} />
                  <Td>
                    <CancelButton
                      what="trigger"
                      name={t.text || t.id}
                      busy={cancel.isPending && cancel.variables?.id === t.id}
                      onCancel={() => cancel.mutate({ id: t.id })}
                    />
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      ) : null}
    </OpenList>
  );
}

function FinishedTriggers({ pair, pairs }: { pair: string; pairs: Map<string, Pair> }) {
  const list = useDeskQuery(['trade.triggerOrders', { status: 'finished', pair, limit: 50 }]);
  if (list.isLoading) return <Loading />;
  if (list.error) return <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data?.length) return <EmptyState title="No finished stop or take-profit orders" />;
  return (
    <Table caption="Finished trigger orders" testId="finished-triggers">
      <THead>
        <Tr>
          <Th>
            <TimeHeader>Finished</TimeHeader>
          </Th>
          <Th>When</Th>
          <Th>Then</Th>
          <Th>Outcome</Th>
          <Th>Client id</Th>
        </Tr>
      </THead>
      <TBody>
        {list.data.map((t) => {
          const units = unitsOf(pairs, t.pair);
          return (
            <Tr key={t.id} data-testid="finished-trigger" data-trigger-id={t.id} data-status={t.status}>
              <Td>{t.finishTimeMs ? <Time ms={t.finishTimeMs} /> : '—'}</Td>
              <Td>{when(t, units)}</Td>
              <Td>{describeTriggerOrder(t, units)}</Td>
              <Td className="outcome">
                {TRIGGER_STATUS_WORDS[t.status]}
                {t.status === 'fired' && t.firedOrderId ? (
                  <>
                    {' '}
                    (order <code data-testid="fired-order-id">{t.firedOrderId}</code>)
                  </>
                ) : null}
                {t.status === 'failed' ? ` — ${reasonWords(t.reason)}` : null}
              </Td>
              <ClientIdCell text={t.text} />
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}

/** The notice for a trigger that left the open list (a cancelled one was the trader's own doing: none). */
export const describeTriggerOutcome = (t: TriggerOrder, units: Pick<Pair, 'base' | 'quote'>) => {
  const order = describeTriggerOrder(t, units);
  const rule = `${when(t, units)} · ${t.text || t.id}`;
  if (t.status === 'fired')
    return {
      tone: 'good' as const,
      title: `Trigger fired: ${order}`,
      message: `${rule} · order ${t.firedOrderId ?? ''} placed`,
    };
  if (t.status === 'failed')
    return {
      tone: 'bad' as const,
      title: `Trigger failed: ${reasonWords(t.reason)}`,
      message: `${rule} · ${order}`,
      sticky: true,
    };
  return { tone: 'warn' as const, title: 'Trigger expired without firing', message: `${rule} · ${order}` };
};

/**
 * Tells the trader when a trigger of the pair fires (or fails or expires), whichever tab is open:
 * the open list is read every few seconds while it is not empty, and one that leaves it is looked
 * up among the finished ones.
 */
const useTriggerNotices = (pair: string, pairs: Map<string, Pair>) => {
  const open = useDeskQuery(['trade.triggerOrders', { status: 'open', limit: 50, pair }], {
    refetchInterval: (q) => ((q.state.data?.length ?? 0) > 0 ? POLL_MS : false),
  });
  const seen = useRef<{ pair: string; ids: Set<string> }>({ pair, ids: new Set() });
  const units = useRef(pairs);
  units.current = pairs;
  useEffect(() => {
    if (!open.data) return;
    const before = seen.current;
    const now = new Set(open.data.map((t) => t.id));
    seen.current = { pair, ids: now };
    const gone = before.pair === pair ? [...before.ids].filter((id) => !now.has(id)) : [];
    if (gone.length === 0) return;
    call('trade.triggerOrders', { status: 'finished', pair, limit: 50 })
      .then((finished) => {
        for (const t of finished)
          if (gone.includes(t.id) && t.status !== 'cancelled')
            notify({
              ...describeTriggerOutcome(t, unitsOf(units.current, t.pair)),
              screen: 'trade',
              key: `trigger:${t.id}`,
            });
      })
      .catch(() => undefined);
  }, [open.data, pair]);
};

export function TriggerOrders({ pair, pairs }: { pair: string; pairs: Map<string, Pair> }) {
  const [tab, setTab] = useState<Tab>('open');
  useTriggerNotices(pair, pairs);
  const queries = useQueryClient();
  // An event naming its orders is about plain orders (placed, amended, cancelled): triggers did not change.
  useDeskEvent('trade.ordersChanged', (change) => {
    if (change.orders === undefined) void queries.invalidateQueries({ queryKey: ['trade.triggerOrders'] });
  });
  return (
    <section className="orders-panel" aria-label="Stop and take-profit orders" data-testid="trigger-orders">
      <Tabs
        label="Stop and take-profit orders"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'open', label: 'Open triggers' },
          { id: 'finished', label: 'Finished triggers' },
        ]}
      >
        {tab === 'open' ? <OpenTriggers pair={pair} pairs={pairs} /> : null}
        {tab === 'finished' ? <FinishedTriggers pair={pair} pairs={pairs} /> : null}
      </Tabs>
    </section>
  );
}
