/** Read models over the ledger: futures, margin and cross-margin account shapes of the spec. */
import Decimal from 'decimal.js';
import type { SandboxContext } from '../context';
import { dec } from '../store/ledger';

const Z = '0';

/** FuturesAccount (perpetual or delivery) of a user for one settle currency. */
export function futuresAccount(
  ctx: SandboxContext,
  userId: number,
  account: 'futures' | 'delivery',
  settle: string,
): Record<string, unknown> {
  const currency = settle.toUpperCase();
  const b = ctx.ledger.get({ userId, account, currency });
  const dnw = ctx.db
    .prepare("SELECT change FROM ledger_entries WHERE user_id = ? AND account = ? AND currency = ? AND type = 'dnw'")
    .all(userId, account, currency) as { change: string }[];
  const total = new Decimal(b.available).plus(b.locked);
  const view: Record<string, unknown> = {
    total: dec(total),
    unrealised_pnl: Z,
    position_margin: Z,
    order_margin: b.locked,
    available: b.available,
    point: Z,
    currency,
    in_dual_mode: false,
    enable_credit: false,
    position_initial_margin: Z,
    maintenance_margin: Z,
    bonus: Z,
    enable_evolved_classic: false,
    cross_order_margin: Z,
    cross_initial_margin: Z,
    cross_maintenance_margin: Z,
    cross_unrealised_pnl: Z,
    cross_available: b.available,
    cross_margin_balance: dec(total),
    cross_mmr: Z,
    cross_imr: Z,
    isolated_position_margin: Z,
    enable_new_dual_mode: false,
    margin_mode: 0,
    enable_tiered_mm: false,
    enable_dual_plus: false,
    position_mode: 'single',
    history: {
      dnw: dec(dnw.reduce((s, r) => s.plus(r.change), new Decimal(0))),
      pnl: Z,
      fee: Z,
      refr: Z,
      fund: Z,
      point_dnw: Z,
      point_fee: Z,
      point_refr: Z,
      bonus_dnw: Z,
      bonus_offset: Z,
      cross_settle: Z,
    },
  };
  if (account === 'delivery') {
    // The delivery model (DeliveryAccount) has neither the dual-plus and position-mode fields nor a
    // cross settlement in its history.
    const { enable_dual_plus: _dualPlus, position_mode: _positionMode, ...delivery } = view;
    const { cross_settle: _crossSettle, ...history } = view.history as Record<string, unknown>;
    return { ...delivery, history };
  }
  return view;
}

/** Isolated-margin accounts (MarginAccount) of a user, one per pair with balances. */
export function marginAccounts(ctx: SandboxContext, userId: number): Record<string, unknown>[] {
  const rows = ctx.ledger.list(userId, 'margin');
  const pairs = [...new Set(rows.map((r) => r.pair))];
  return pairs.map((pair) => {
    const [base = '', quote = ''] = pair.split('_');
    const side = (currency: string) => {
      const b = ctx.ledger.get({ userId, account: 'margin', currency, pair });
      return { currency, available: b.available, locked: b.locked, borrowed: Z, interest: Z };
    };
    return {
      currency_pair: pair,
      account_type: 'mmr',
      leverage: '10',
      locked: false,
      risk: '0',
      mmr: '0',
      base: side(base),
      quote: side(quote),
    };
  });
}

/** Cross-margin account of a user (user_id 0 when it was never funded). */
export function crossMarginAccount(ctx: SandboxContext, userId: number): Record<string, unknown> {
  const rows = ctx.ledger.list(userId, 'cross_margin');
  let total = new Decimal(0);
  const balances: Record<string, unknown> = {};
  for (const r of rows) {
    balances[r.currency] = { available: r.available, freeze: r.locked, borrowed: Z, interest: Z };
    total = total.plus(ctx.prices.valueUsdt(r.currency, new Decimal(r.available).plus(r.locked)));
  }
  const t = dec(total.toDecimalPlaces(8, Decimal.ROUND_DOWN));
  return {
    user_id: rows.length > 0 ? userId : 0,
    locked: false,
    balances,
    total: t,
    borrowed: Z,
    borrowed_net: Z,
    net: t,
    leverage: '3',
    interest: Z,
    risk: total.isZero() ? '0' : '1000',
    total_initial_margin: Z,
    total_margin_balance: t,
    total_maintenance_margin: Z,
    total_initial_margin_rate: Z,
    total_maintenance_margin_rate: Z,
    total_available_margin: t,
  };
}
