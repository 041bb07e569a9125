/**
 * The account-book reads the spec names for records of POST /wallet/transfers:
 * GET /margin/account_book, GET /futures/{settle}/account_book?type=dnw and
 * GET /delivery/{settle}/account_book?type=dnw — backed by the ledger's entries.
 */
import { DELIVERY_SETTLES, FUTURES_SETTLES } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { optInt, pagePaging, paging } from '../http/params';
import type { PrivateRouteRequest, RouteDef } from '../http/route';

const FUTURES_TYPES = [
  'bonus_dnw',
  'bonus_offset',
  'dnw',
  'fee',
  'fund',
  'pnl',
  'point_convert',
  'point_dnw',
  'point_fee',
  'point_refr',
  'pv_dnw',
  'refr',
];
const DELIVERY_TYPES = ['dnw', 'fee', 'pnl', 'point_dnw', 'point_fee', 'point_refr', 'refr', 'settle', 'settle_fee'];

function bounds(q: Readonly<Record<string, string>>): { from: number; to: number } {
  const from = optInt(q, 'from', { min: 0 });
  const to = optInt(q, 'to', { min: 0 });
  const range = {
    from: from === undefined ? 0 : from * 1000,
    to: to === undefined ? Number.MAX_SAFE_INTEGER : to * 1000 + 999,
  };
  if (range.from > range.to) throw new ApiFailure('INVALID_PARAM_VALUE', 'from must not be after to');
  return range;
}

export function accountBookRoutes(ctx: SandboxContext): RouteDef[] {
  const margin = (req: PrivateRouteRequest) => {
    const q = req.query;
    const { limit, offset } = pagePaging(q);
    if (q.currency_pair && !/^[A-Z0-9]+_[A-Z0-9]+$/.test(q.currency_pair)) {
      throw new ApiFailure('INVALID_CURRENCY_PAIR', `Invalid currency pair: ${q.currency_pair}`);
    }
    const { from, to } = bounds(q);
    return ctx.ledger
      .entries({
        userId: req.user.id,
        account: 'margin',
        ...(q.currency ? { currency: q.currency } : {}),
        ...(q.currency_pair ? { pair: q.currency_pair } : {}),
        ...(q.type ? { type: q.type } : {}),
        from,
        to,
        limit,
        offset,
      })
      .map((e) => ({
        id: String(e.id),
        time: String(Math.floor(e.time / 1000)),
        time_ms: e.time,
        currency: e.currency,
        currency_pair: e.pair,
        change: e.change,
        balance: e.balance,
        type: e.type,
      }));
  };

  const contract =
    (account: 'futures' | 'delivery', settles: readonly string[], types: readonly string[]) =>
    (req: PrivateRouteRequest) => {
      const settle = (req.params.settle ?? '').toLowerCase();
      if (!settles.includes(settle))
        throw new ApiFailure('INVALID_PARAM_VALUE', `settle must be one of ${settles.join(', ')}`);
      const q = req.query;
      if (q.type && !types.includes(q.type))
        throw new ApiFailure('INVALID_PARAM_VALUE', `type must be one of ${types.join(', ')}`);
      const { limit, offset } = paging(q);
      const { from, to } = bounds(q);
      return ctx.ledger
        .entries({
          userId: req.user.id,
          account,
          currency: settle.toUpperCase(),
          ...(q.type ? { type: q.type } : {}),
          from,
          to,
          limit,
          offset,
        })
        .map((e) => ({
          time: e.time / 1000,
          change: e.change,
          balance: e.balance,
          type: e.type,
          text: e.ref ? `transfer:${e.ref}` : '',
          contract: '',
          trade_id: '',
          id: String(e.id),
        }));
    };

  return [
    { method: 'GET', path: '/margin/account_book', auth: 'private', permission: 'spot', handler: margin },
    {
      method: 'GET',
      path: '/futures/:settle/account_book',
      auth: 'private',
      permission: 'futures',
      handler: contract('futures', FUTURES_SETTLES, FUTURES_TYPES),
    },
    {
      method: 'GET',
      path: '/delivery/:settle/account_book',
      auth: 'private',
      permission: 'delivery',
      handler: contract('delivery', DELIVERY_SETTLES, DELIVERY_TYPES),
    },
  ];
}
