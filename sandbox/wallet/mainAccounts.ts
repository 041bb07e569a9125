/**
 * The main account's own balances per account type, as the platform's SDK models shape them:
 * GET /margin/accounts (isolated margin, MarginAccount per pair), GET /margin/cross/accounts
 * (CrossMarginAccount), GET /futures/{settle}/accounts and GET /delivery/{settle}/accounts
 * (FuturesAccount), GET /options/accounts (OptionsAccount). Read models over the same ledger as
 * the sub-account balance endpoints (wallet/accounts.ts), so a transfer shows up in both.
 */
import Decimal from 'decimal.js';
import { DELIVERY_SETTLES, FUTURES_SETTLES } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import type { RouteDef } from '../http/route';
import { dec } from '../store/ledger';
import { crossMarginAccount, futuresAccount, marginAccounts } from './accounts';

const settleOf = (raw: string | undefined, settles: readonly string[]): string => {
  const settle = (raw ?? '').toLowerCase();
  if (!settles.includes(settle))
    throw new ApiFailure('INVALID_PARAM_VALUE', `settle must be one of ${settles.join(', ')}`);
  return settle;
};

/** OptionsAccount: the options account's USDT balance (the sandbox has no option positions). */
const optionsAccount = (ctx: SandboxContext, userId: number): Record<string, unknown> => {
  const b = ctx.ledger.get({ userId, account: 'options', currency: 'USDT' });
  const total = new Decimal(b.available).plus(b.locked);
  return {
    user: userId,
    total: dec(total),
    position_value: '0',
    equity: dec(total),
    short_enabled: false,
    mmp_enabled: false,
    liq_triggered: false,
    margin_mode: 0,
    unrealised_pnl: '0',
    init_margin: '0',
    maint_margin: '0',
    order_margin: b.locked,
    ask_order_margin: '0',
    bid_order_margin: '0',
    available: b.available,
    point: '0',
    currency: 'USDT',
    orders_limit: 50,
    position_notional_limit: 1000000,
  };
};

export function mainAccountRoutes(ctx: SandboxContext): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/margin/accounts',
      auth: 'private',
      permission: 'spot',
      handler: (req) => {
        const pair = req.query.currency_pair || undefined;
        const all = marginAccounts(ctx, req.user.id);
        return pair === undefined ? all : all.filter((a) => a.currency_pair === pair);
      },
    },
    {
      method: 'GET',
      path: '/margin/cross/accounts',
      auth: 'private',
      permission: 'spot',
      handler: (req) => crossMarginAccount(ctx, req.user.id),
    },
    {
      method: 'GET',
      path: '/futures/:settle/accounts',
      auth: 'private',
      permission: 'futures',
      handler: (req) => futuresAccount(ctx, req.user.id, 'futures', settleOf(req.params.settle, FUTURES_SETTLES)),
    },
    {
      method: 'GET',
      path: '/delivery/:settle/accounts',
      auth: 'private',
      permission: 'delivery',
      handler: (req) => futuresAccount(ctx, req.user.id, 'delivery', settleOf(req.params.settle, DELIVERY_SETTLES)),
    },
    {
      method: 'GET',
      path: '/options/accounts',
      auth: 'private',
      permission: 'options',
      handler: (req) => optionsAccount(ctx, req.user.id),
    },
  ];
}
