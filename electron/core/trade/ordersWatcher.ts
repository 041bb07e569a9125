/**
 * While a pair is watched, polls the user's open orders of that pair and the spot balances of its
 * two currencies, and tells the renderer when either changed (a fill by someone else, an order
 * placed and filled between two polls, a cancel elsewhere, a deposit), so the screen refreshes
 * orders, trades and balances without being asked. Private endpoints allow 200 requests per 10 s
 * per endpoint; two requests every 2 s are far below that.
 */
import type { PlatformApi } from '../api/platform';
import type { Emit } from '../services/context';

export const ORDERS_POLL_MS = 2_000;

type Spot = Pick<PlatformApi['spot'], 'listOrders' | 'accounts'>;

interface Seen {
  /** Order id → remaining amount. */
  orders: Map<string, string>;
  /** available|locked of each of the pair's currencies. */
  balances: string;
}

/** What changed between two polls, or undefined when nothing did. */
export const classifyChange = (before: Seen, after: Seen): 'filled' | 'placed' | undefined => {
  let placed = false;
  for (const [id, left] of before.orders) {
    const now = after.orders.get(id);
    // An order that vanished or shrank traded (or was cancelled elsewhere): refresh as a fill.
    if (now === undefined || now !== left) return 'filled';
  }
  for (const id of after.orders.keys()) if (!before.orders.has(id)) placed = true;
  if (placed) return 'placed';
  return before.balances === after.balances ? undefined : 'filled';
};

export class OrdersWatcher {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(
    private readonly spot: () => Spot,
    private readonly emit: Emit,
    private readonly period = ORDERS_POLL_MS,
  ) {}

  start(pair: string): void {
    this.stop();
    const generation = ++this.generation;
    const currencies = pair.split('_');
    let previous: Seen | undefined;
    const tick = async () => {
      try {
        const [orders, accounts] = await Promise.all([
          this.spot().listOrders({ currency_pair: pair, status: 'open', limit: 100 }),
          this.spot().accounts(),
        ]);
        if (generation !== this.generation) return;
        const current: Seen = {
          orders: new Map(orders.map((o) => [String(o.id), o.left ?? ''])),
          balances: accounts
            .filter((a) => currencies.includes(a.currency))
            .map((a) => `${a.currency}:${a.available}|${a.locked}`)
            .sort()
            .join(','),
        };
        const change = previous === undefined ? undefined : classifyChange(previous, current);
        if (change) this.emit('trade.ordersChanged', { pair, reason: change });
        previous = current;
      } catch {
        // Not connected or the platform is unreachable: the market feed reports staleness; try again.
      }
      if (generation !== this.generation) return;
      this.timer = setTimeout(tick, this.period);
      (this.timer as { unref?: () => void }).unref?.();
    };
    void tick();
  }

  stop(): void {
    this.generation++;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
