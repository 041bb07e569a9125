/**
 * Stop and take-profit orders: the `trade.*Trigger*` handlers over the platform's price-triggered
 * orders (/spot/price_orders). The same last gate as a normal order (checkTrigger runs checkTicket on
 * the order it will place, with the pair's precision and minimums and the max-notional guard). Never
 * resent: the order it places carries a `t-` client id, and a lost answer is settled by looking for
 * that id among the open triggers.
 */
import type { z } from 'zod';
import type { DeskHandlers } from '../../shared/contract';
import type * as C from '../../shared/contract/trade';
import type * as S from '../../shared/platform/api';
import { checkTrigger } from '../../shared/trade/trigger';
import { isApiError } from '../api/apiError';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';

type TriggerOut = z.input<typeof C.TriggerOrder>;

const STATUS: Record<S.PriceTriggeredOrder['status'], C.TriggerStatus> = {
  open: 'open',
  finish: 'fired',
  failed: 'failed',
  expired: 'expired',
  cancelled: 'cancelled',
};

export const toTrigger = (o: S.PriceTriggeredOrder): TriggerOut => {
  const ctime = o.ctime ?? 0;
  const fired = o.fired_order_id === undefined || o.fired_order_id === null ? '' : String(o.fired_order_id);
  const type = o.put.type ?? 'limit';
  return {
    id: String(o.id),
    pair: o.market,
    rule: o.trigger.rule,
    triggerPrice: String(o.trigger.price),
    side: o.put.side,
    type,
    price: type === 'market' ? '' : String(o.put.price),
    amount: String(o.put.amount),
    timeInForce: o.put.time_in_force ?? (type === 'market' ? 'ioc' : 'gtc'),
    text: o.put.text ?? '',
    status: STATUS[o.status],
    reason: o.status === 'failed' ? (o.reason ?? '') : '',
    firedOrderId: fired === '' || fired === '0' ? null : fired,
    createTimeMs: Math.round(ctime * 1000),
    expiresAtMs: Math.round((ctime + o.trigger.expiration) * 1000),
    finishTimeMs: o.ftime !== undefined && o.ftime > 0 ? Math.round(o.ftime * 1000) : null,
  };
};

export interface TriggerDeps {
  spot: () => PlatformApi['spot'];
  pairInfo: (id: string) => Promise<C.Pair>;
  maxNotional: () => string;
  /** After a change: the screens refresh. */
  changed: (pair: string | undefined, reason: 'placed' | 'cancelled') => void;
}

type TriggerHandlers = Pick<
  DeskHandlers['trade'],
  'placeTrigger' | 'triggerOrders' | 'cancelTrigger' | 'cancelAllTriggers'
>;

export const createTriggerHandlers = ({ spot, pairInfo, maxNotional, changed }: TriggerDeps): TriggerHandlers => {
  const findByText = async (pair: string, text: string) => {
    const open = await spot().listPriceOrders({ status: 'open', market: pair, limit: 100 });
    return open.find((o) => o.put.text === text);
  };

  return {
    placeTrigger: async (input) => {
      const pair = await pairInfo(input.pair);
      // The renderer checked all this already; main checks again because it is the last gate.
      const errors = checkTrigger(
        {
          pair: input.pair,
          rule: input.rule,
          triggerPrice: input.triggerPrice,
          side: input.side,
          type: input.type,
          price: input.price ?? '',
          amount: input.amount,
        },
        { pair, maxNotional: maxNotional() },
      );
      if (Object.keys(errors).length > 0)
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: Object.values(errors)[0] ?? 'The trigger is not valid; nothing was sent.',
          fields: errors as Record<string, string>,
        });

      const { text } = input;
      let id: string;
      try {
        const created = await spot().placePriceOrder({
          market: input.pair,
          trigger: { price: input.triggerPrice, rule: input.rule, expiration: input.expiresInSeconds },
          put: {
            type: input.type,
            side: input.side,
            price: input.price ?? '0',
            amount: input.amount,
            account: 'normal',
            time_in_force: input.type === 'market' ? 'ioc' : 'gtc',
            text,
          },
        });
        id = String(created.id);
      } catch (error) {
        if (isApiError(error) && error.delivery === 'unknown') {
          // It may have been created. Never resend: look for its client id once.
          const found = await findByText(input.pair, text).catch(() => undefined);
          if (found) {
            changed(input.pair, 'placed');
            return toTrigger(found);
          }
          throw new DeskFailure({
            code: 'OUTCOME_UNKNOWN',
            message: `The platform did not confirm the trigger order ${text}. It may or may not have been placed.`,
            advice: 'Do not place it again yet: check the open trigger orders for this id first.',
            ...(error.requestId ? { requestId: error.requestId } : {}),
          });
        }
        throw error;
      }
      changed(input.pair, 'placed');
      return toTrigger(await spot().getPriceOrder(id));
    },
    triggerOrders: async ({ status, pair, limit }) => {
      const list = await spot().listPriceOrders({ status, limit, ...(pair ? { market: pair } : {}) });
      return list.map(toTrigger).sort((a, b) => b.createTimeMs - a.createTimeMs || Number(b.id) - Number(a.id));
    },
    cancelTrigger: async ({ id }) => {
      const cancelled = toTrigger(await spot().cancelPriceOrder(id));
      changed(cancelled.pair, 'cancelled');
      return cancelled;
    },
    cancelAllTriggers: async ({ pair }) => {
      const cancelled = (await spot().cancelAllPriceOrders(pair ? { market: pair } : {})).map(toTrigger);
      changed(pair, 'cancelled');
      return { cancelled };
    },
  };
};
