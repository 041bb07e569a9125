/** The wallet group (spec "Wallet group"): every operation except transfers (wallet/transfers.ts). */
import Decimal from 'decimal.js';
import type { CurrencyDef } from '../catalog';
import { CURRENCIES, currencyDef, FIAT_PER_USDT, FUTURES_SETTLES, SMALL_BALANCE_MAX_USDT } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { bodyObject, optBool, optInt, pagePaging, paging, secondsString, timeRange } from '../http/params';
import type { PrivateRouteRequest, RouteDef } from '../http/route';
import type { Pipelines } from '../pipelines/pipelines';
import { type AccountType, dec } from '../store/ledger';
import { type WithdrawalDbRow, withdrawalListForm } from '../withdrawals/format';
import { dayUsage } from '../withdrawals/rules';
import { crossMarginAccount, futuresAccount, marginAccounts } from './accounts';
import { depositAddressOf, ensureDepositAddresses } from './addresses';
import { transferRoutes } from './transfers';

const requireCurrency = (code: string | undefined): CurrencyDef => {
  if (code === undefined || code === '')
    throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: currency');
  const def = currencyDef(code);
  if (!def) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${code}`);
  return def;
};

const percent = (p: string): string => `${p}%`;
const round8 = (d: Decimal): string => dec(d.toDecimalPlaces(8, Decimal.ROUND_DOWN));

/** Sub-account ids of a `sub_uid` query (comma-separated), checked to belong to the main account. */
function subIdsOf(ctx: SandboxContext, main: number, subUid: string | undefined): number[] {
  const all = ctx.users.subAccounts(main).map((u) => u.id);
  if (!subUid) return all;
  const ids = subUid.split(',').map((s) => {
    const t = s.trim();
    if (!/^\d{1,15}$/.test(t)) throw new ApiFailure('INVALID_PARAM_VALUE', 'sub_uid must be comma-separated user ids');
    return Number(t);
  });
  for (const id of ids)
    if (!all.includes(id)) throw new ApiFailure('SUB_ACCOUNT_NOT_FOUND', `Sub-account ${id} not found`);
  return ids;
}

export function walletRoutes(ctx: SandboxContext, _pipelines: Pipelines): RouteDef[] {
  const { db, ledger, prices, users } = ctx;

  const currencyChains = (currency: string | undefined) => {
    const def = requireCurrency(currency);
    if (def.lowCap) return [];
    return def.chains.map((c) => ({
      chain: c.chain,
      name_cn: c.nameCn,
      name_en: c.nameEn,
      contract_address: c.contractAddress,
      is_disabled: c.disabled ? 1 : 0,
      is_deposit_disabled: c.depositDisabled ? 1 : 0,
      is_withdraw_disabled: c.withdrawDisabled ? 1 : 0,
      decimal: String(c.decimal),
      is_tag: c.tag ? 1 : 0,
    }));
  };

  const depositAddress = (req: PrivateRouteRequest) => {
    const def = requireCurrency(req.query.currency);
    if (!depositAddressOf(ctx, req.user.id, def.currency, def.chains[0]!.chain)) {
      ctx.tx(() => ensureDepositAddresses(ctx, req.user.id));
    }
    const items = def.chains.map((c) => {
      const a = depositAddressOf(ctx, req.user.id, def.currency, c.chain)!;
      const off = c.disabled || c.depositDisabled;
      return {
        chain: c.chain,
        address: off ? '' : a.address,
        payment_id: off ? '' : a.memo,
        payment_name: c.tag || '',
        obtain_failed: off ? 1 : 0,
        min_confirms: c.minConfirms,
      };
    });
    return {
      currency: def.currency,
      address: items.find((i) => i.obtain_failed === 0)?.address ?? '',
      min_deposit_amount: def.minDeposit,
      multichain_addresses: items,
    };
  };

  const listWithdrawals = (req: PrivateRouteRequest) => {
    const q = req.query;
    const { limit, offset } = paging(q);
    if (q.asset_class && q.asset_class !== 'SPOT' && q.asset_class !== 'PILOT') {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'asset_class must be SPOT or PILOT');
    }
    if (q.withdraw_id) {
      // "only this record is queried and time-based query is disabled"
      const row = db
        .prepare('SELECT * FROM withdrawals WHERE id = ? AND user_id = ?')
        .get(q.withdraw_id, req.user.id) as WithdrawalDbRow | undefined;
      return row ? [withdrawalListForm(row)] : [];
    }
    const { fromMs, toMs } = timeRange(q, req.now);
    const rows = db
      .prepare(
        `SELECT * FROM withdrawals WHERE user_id = ? AND timestamp >= ? AND timestamp <= ?
           AND (? = '' OR currency = ?) AND (? = '' OR withdraw_order_id = ?) AND (? = '' OR asset_class = ?)
         ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?`,
      )
      .all(
        req.user.id,
        fromMs,
        toMs,
        q.currency ?? '',
        q.currency ?? '',
        q.withdraw_order_id ?? '',
        q.withdraw_order_id ?? '',
        q.asset_class ?? '',
        q.asset_class ?? '',
        limit,
        offset,
      ) as WithdrawalDbRow[];
    return rows.map(withdrawalListForm);
  };

  const listDeposits = (req: PrivateRouteRequest) => {
    const q = req.query;
    const { limit, offset } = paging(q, { maxLimit: 500 });
    const { fromMs, toMs } = timeRange(q, req.now);
    const rows = db
      .prepare(
        `SELECT * FROM deposits WHERE user_id = ? AND timestamp >= ? AND timestamp <= ? AND (? = '' OR currency = ?)
         ORDER BY timestamp DESC, seq DESC LIMIT ? OFFSET ?`,
      )
      .all(req.user.id, fromMs, toMs, q.currency ?? '', q.currency ?? '', limit, offset) as {
      id: string;
      txid: string;
      timestamp: number;
      amount: string;
      currency: string;
      address: string;
      memo: string;
      status: string;
      chain: string;
    }[];
    return rows.map((r) => ({
      id: r.id,
      txid: r.txid,
      timestamp: secondsString(r.timestamp),
      amount: r.amount,
      currency: r.currency,
      address: r.address,
      memo: r.memo,
      status: r.status,
      chain: r.chain,
    }));
  };

  const withdrawStatus = (req: PrivateRouteRequest) => {
    const filter = req.query.currency;
    return CURRENCIES.filter((c) => !c.lowCap && (!filter || c.currency === filter)).map((c) => {
      const used = dayUsage(ctx, req.user.id, c.currency, req.now);
      const remain = Decimal.max(0, new Decimal(c.withdrawDayLimit).minus(used));
      return {
        currency: c.currency,
        name: c.name,
        name_cn: c.nameCn,
        deposit: '0',
        withdraw_percent: percent(c.withdrawPercent),
        withdraw_fix: c.chains[0]!.withdrawFix,
        withdraw_day_limit: c.withdrawDayLimit,
        withdraw_day_limit_remain: dec(remain),
        withdraw_amount_mini: c.withdrawMin,
        withdraw_eachtime_limit: c.withdrawEachTimeLimit,
        withdraw_fix_on_chains: Object.fromEntries(c.chains.map((ch) => [ch.chain, ch.withdrawFix])),
        withdraw_percent_on_chains: Object.fromEntries(c.chains.map((ch) => [ch.chain, percent(c.withdrawPercent)])),
      };
    });
  };

  const subBalances = (req: PrivateRouteRequest) => {
    const { limit, offset } = pagePaging(req.query, { defaultLimit: 20, maxLimit: 100 });
    const ids = subIdsOf(ctx, req.user.id, req.query.sub_uid).slice(offset, offset + limit);
    return ids.map((id) => ({
      uid: String(id),
      available: Object.fromEntries(ledger.list(id, 'spot').map((b) => [b.currency, b.available])),
    }));
  };

  const subMarginBalances = (req: PrivateRouteRequest) =>
    subIdsOf(ctx, req.user.id, req.query.sub_uid).map((id) => ({
      uid: String(id),
      available: marginAccounts(ctx, id),
    }));

  const subFuturesBalances = (req: PrivateRouteRequest) => {
    const settle = req.query.settle?.toLowerCase();
    if (settle && !FUTURES_SETTLES.includes(settle)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', `settle must be one of ${FUTURES_SETTLES.join(', ')}`);
    }
    const settles = settle ? [settle] : FUTURES_SETTLES;
    return subIdsOf(ctx, req.user.id, req.query.sub_uid).map((id) => ({
      uid: String(id),
      available: Object.fromEntries(settles.map((s) => [s, futuresAccount(ctx, id, 'futures', s)])),
    }));
  };

  const subCrossBalances = (req: PrivateRouteRequest) =>
    subIdsOf(ctx, req.user.id, req.query.sub_uid).map((id) => ({
      uid: String(id),
      available: crossMarginAccount(ctx, id),
    }));

  const savedAddresses = (req: PrivateRouteRequest) => {
    const def = requireCurrency(req.query.currency);
    const limit = optInt(req.query, 'limit', { min: 1, max: 100 }) ?? 50;
    const page = optInt(req.query, 'page', { min: 1, max: 1_000_000 }) ?? 1;
    const chain = req.query.chain ?? '';
    const rows = db
      .prepare(
        `SELECT currency, chain, address, name, tag, verified FROM saved_addresses
         WHERE user_id = ? AND currency = ? AND (? = '' OR chain = ?) ORDER BY id LIMIT ? OFFSET ?`,
      )
      .all(req.caller.mainUserId, def.currency, chain, chain, limit, (page - 1) * limit);
    return rows;
  };

  const tradeFee = (req: PrivateRouteRequest) => {
    const pair = req.query.currency_pair;
    if (pair && !/^[A-Z0-9]{1,20}_[A-Z0-9]{1,20}$/.test(pair))
      throw new ApiFailure('INVALID_CURRENCY_PAIR', `Invalid currency pair: ${pair}`);
    const settle = req.query.settle;
    if (settle && !['BTC', 'USDT', 'USD'].includes(settle.toUpperCase())) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'settle must be BTC, USDT or USD');
    }
    return { user_id: req.user.id, ...users.fees(req.user.id) };
  };

  const totalBalance = (req: PrivateRouteRequest) => {
    const target = req.query.currency ?? 'USDT';
    if (!['BTC', 'CNY', 'USD', 'USDT'].includes(target)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'currency must be one of BTC, CNY, USD, USDT');
    }
    const convert = (usdt: Decimal): string => {
      if (target === 'USDT') return round8(usdt);
      if (target === 'BTC') return round8(usdt.div(prices.usdt('BTC') ?? 1));
      return round8(usdt.times(FIAT_PER_USDT[target] ?? '1'));
    };
    const sums = new Map<AccountType, Decimal>();
    for (const b of ledger.list(req.user.id)) {
      const value = prices.valueUsdt(b.currency, new Decimal(b.available).plus(b.locked));
      sums.set(b.account, (sums.get(b.account) ?? new Decimal(0)).plus(value));
    }
    const amount = (account: string) => convert(sums.get(account as AccountType) ?? new Decimal(0));
    const total = [...sums.values()].reduce((s, v) => s.plus(v), new Decimal(0));
    const plain = (account: string) => ({ amount: amount(account), currency: target });
    const withPnl = (account: string) => ({ ...plain(account), unrealised_pnl: '0' });
    const withBorrowed = (account: string) => ({ ...plain(account), borrowed: '0' });
    return {
      total: { amount: convert(total), currency: target, unrealised_pnl: '0', borrowed: '0' },
      details: {
        cross_margin: withBorrowed('cross_margin'),
        spot: plain('spot'),
        finance: plain('finance'),
        margin: withBorrowed('margin'),
        quant: plain('quant'),
        futures: withPnl('futures'),
        delivery: withPnl('delivery'),
        warrant: plain('warrant'),
        cbbc: plain('cbbc'),
        meme_box: plain('meme_box'),
        options: withPnl('options'),
        payment: plain('payment'),
      },
    };
  };

  /** Spot balances worth less than SMALL_BALANCE_MAX_USDT (GT itself excluded: it is the target). */
  const smallBalances = (userId: number) => {
    const gt = prices.usdt('GT') ?? new Decimal(1);
    const btc = prices.usdt('BTC') ?? new Decimal(1);
    return ledger
      .list(userId, 'spot')
      .filter((b) => b.currency !== 'GT' && new Decimal(b.available).gt(0))
      .map((b) => ({ b, value: prices.valueUsdt(b.currency, b.available) }))
      .filter(({ value }) => value.lt(SMALL_BALANCE_MAX_USDT))
      .map(({ b, value }) => ({
        currency: b.currency,
        available_balance: b.available,
        estimated_as_btc: round8(value.div(btc)),
        convertible_to_gt: round8(value.div(gt)),
      }));
  };

  const convertSmall = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const isAll = optBool(body, 'is_all') ?? false;
    const list = body.currency;
    if (list !== undefined && (!Array.isArray(list) || !list.every((c) => typeof c === 'string'))) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'currency must be an array of currency names');
    }
    const wanted = (list as string[] | undefined) ?? [];
    if (!isAll && wanted.length === 0) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'currency or is_all is required');
    const small = smallBalances(req.user.id);
    const chosen = isAll
      ? small
      : wanted.map((c) => {
          const hit = small.find((s) => s.currency === c);
          if (!hit) throw new ApiFailure('INVALID_CURRENCY', `${c} is not a convertible small balance`);
          return hit;
        });
    ctx.tx(() => {
      const insert = db.prepare(
        'INSERT INTO small_balance_history (user_id, currency, amount, gt_amount, create_time) VALUES (?, ?, ?, ?, ?)',
      );
      for (const s of chosen) {
        const info = insert.run(req.user.id, s.currency, s.available_balance, s.convertible_to_gt, req.now);
        const ref = `small:${info.lastInsertRowid}`;
        ledger.debit(
          { userId: req.user.id, account: 'spot', currency: s.currency },
          s.available_balance,
          'small_balance',
          ref,
        );
        if (new Decimal(s.convertible_to_gt).gt(0)) {
          ledger.credit(
            { userId: req.user.id, account: 'spot', currency: 'GT' },
            s.convertible_to_gt,
            'small_balance',
            ref,
          );
        }
      }
    });
    // The platform answers 200 with no body (the SDKs' convertSmallBalance returns nothing).
    return undefined;
  };

  const smallHistory = (req: PrivateRouteRequest) => {
    const { limit, offset } = pagePaging(req.query, { defaultLimit: 100, maxLimit: 100 });
    const currency = req.query.currency ?? '';
    const rows = db
      .prepare(
        `SELECT id, currency, amount, gt_amount, create_time FROM small_balance_history
         WHERE user_id = ? AND (? = '' OR currency = ?) ORDER BY id DESC LIMIT ? OFFSET ?`,
      )
      .all(req.user.id, currency, currency, limit, offset) as {
      id: number;
      currency: string;
      amount: string;
      gt_amount: string;
      create_time: number;
    }[];
    return rows.map((r) => ({ ...r, id: String(r.id), create_time: Math.floor(r.create_time / 1000) }));
  };

  const pushes = (req: PrivateRouteRequest) => {
    const q = req.query;
    const type = q.transaction_type ?? 'withdraw';
    if (type !== 'withdraw' && type !== 'deposit')
      throw new ApiFailure('INVALID_PARAM_VALUE', 'transaction_type must be withdraw or deposit');
    const id = optInt(q, 'id', { min: 1 });
    const { limit, offset } = paging(q);
    const column = type === 'withdraw' ? 'push_uid' : 'receive_uid';
    let rows: Record<string, unknown>[];
    if (id !== undefined) {
      rows = db.prepare(`SELECT * FROM pushes WHERE id = ? AND ${column} = ?`).all(id, req.user.id) as Record<
        string,
        unknown
      >[];
    } else {
      const { fromMs, toMs } = timeRange(q, req.now);
      rows = db
        .prepare(
          `SELECT * FROM pushes WHERE ${column} = ? AND create_time >= ? AND create_time <= ? ORDER BY id DESC LIMIT ? OFFSET ?`,
        )
        .all(req.user.id, fromMs, toMs, limit, offset) as Record<string, unknown>[];
    }
    return rows.map((r) => ({
      id: r.id,
      push_uid: r.push_uid,
      receive_uid: r.receive_uid,
      currency: r.currency,
      amount: r.amount,
      create_time: Math.floor((r.create_time as number) / 1000),
      status: r.status,
      message: r.message,
      transaction_type: type,
    }));
  };

  const wallet = 'wallet' as const;
  return [
    {
      method: 'GET',
      path: '/wallet/currency_chains',
      auth: 'public',
      handler: (req) => currencyChains(req.query.currency),
    },
    { method: 'GET', path: '/wallet/deposit_address', auth: 'private', permission: wallet, handler: depositAddress },
    { method: 'GET', path: '/wallet/withdrawals', auth: 'private', permission: wallet, handler: listWithdrawals },
    { method: 'GET', path: '/wallet/deposits', auth: 'private', permission: wallet, handler: listDeposits },
    ...transferRoutes(ctx),
    { method: 'GET', path: '/wallet/withdraw_status', auth: 'private', permission: wallet, handler: withdrawStatus },
    {
      method: 'GET',
      path: '/wallet/sub_account_balances',
      auth: 'private',
      permission: wallet,
      mainOnly: true,
      handler: subBalances,
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_margin_balances',
      auth: 'private',
      permission: wallet,
      mainOnly: true,
      handler: subMarginBalances,
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_futures_balances',
      auth: 'private',
      permission: wallet,
      mainOnly: true,
      handler: subFuturesBalances,
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_cross_margin_balances',
      auth: 'private',
      permission: wallet,
      mainOnly: true,
      handler: subCrossBalances,
    },
    { method: 'GET', path: '/wallet/saved_address', auth: 'private', permission: wallet, handler: savedAddresses },
    { method: 'GET', path: '/wallet/fee', auth: 'private', permission: wallet, handler: tradeFee },
    { method: 'GET', path: '/wallet/total_balance', auth: 'private', permission: wallet, handler: totalBalance },
    {
      method: 'GET',
      path: '/wallet/small_balance',
      auth: 'private',
      permission: wallet,
      handler: (req) => smallBalances(req.user.id),
    },
    { method: 'POST', path: '/wallet/small_balance', auth: 'private', permission: wallet, handler: convertSmall },
    {
      method: 'GET',
      path: '/wallet/small_balance_history',
      auth: 'private',
      permission: wallet,
      handler: smallHistory,
    },
    { method: 'GET', path: '/wallet/push', auth: 'private', permission: wallet, handler: pushes },
    {
      method: 'GET',
      path: '/wallet/getLowCapExchangeList',
      auth: 'private',
      permission: wallet,
      handler: () => CURRENCIES.filter((c) => c.lowCap).map((c) => c.currency),
    },
  ];
}
