/**
 * Fund transfers: between a user's own accounts (POST /wallet/transfers), main↔sub
 * (POST /wallet/sub_account_transfers, idempotent on client_order_id) and sub↔sub
 * (POST /wallet/sub_account_to_sub_account), plus their records and GET /wallet/order_status.
 * Each transfer is one transaction: the record and both ledger legs commit together.
 */
import type Decimal from 'decimal.js';
import { TRANSFER_ACCOUNTS, type TransferAccount } from '../../shared/platform/statuses';
import { currencyDef, DELIVERY_SETTLES, FUTURES_SETTLES, MARGIN_PAIRS } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import {
  bodyObject,
  optEnum,
  optString,
  paging,
  reqAmount,
  reqEnum,
  reqString,
  secondsString,
  timeRange,
} from '../http/params';
import type { PrivateRouteRequest, RouteDef } from '../http/route';
import { type BalanceKey, dec } from '../store/ledger';
import type { UserRecord } from '../store/users';

const CLIENT_ORDER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const SUB_TYPES = ['spot', 'futures', 'delivery', 'options'] as const;
const SUB_SUB_TYPES = ['spot', 'futures', 'delivery'] as const;

interface TransferRow {
  id: number;
  kind: string;
  owner_id: number;
  from_user: number;
  to_user: number;
  from_account: string;
  to_account: string;
  currency: string;
  amount: string;
  sub_account: number | null;
  sub_account_type: string;
  direction: string;
  client_order_id: string | null;
  source: string;
  status: string;
  time: number;
}

function knownCurrency(code: string): void {
  if (!currencyDef(code)) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${code}`);
}

/** The ledger key of a sub-account type for a currency (futures/delivery settle in that currency). */
function subAccountKey(userId: number, type: string, currency: string): BalanceKey {
  switch (type) {
    case 'spot':
      return { userId, account: 'spot', currency };
    case 'futures':
      if (!FUTURES_SETTLES.includes(currency.toLowerCase())) {
        throw new ApiFailure(
          'INVALID_PARAM_VALUE',
          `futures accounts settle in ${FUTURES_SETTLES.join(', ').toUpperCase()} only`,
        );
      }
      return { userId, account: 'futures', currency };
    case 'delivery':
      if (!DELIVERY_SETTLES.includes(currency.toLowerCase())) {
        throw new ApiFailure('INVALID_PARAM_VALUE', 'delivery accounts settle in USDT only');
      }
      return { userId, account: 'delivery', currency };
    default:
      if (currency !== 'USDT') throw new ApiFailure('INVALID_PARAM_VALUE', 'options accounts hold USDT only');
      return { userId, account: 'options', currency };
  }
}

function subIdParam(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be a user id`);
  return Number(value);
}

export function transferRoutes(ctx: SandboxContext): RouteDef[] {
  const { db, ledger, users } = ctx;
  const insert = db.prepare(
    `INSERT INTO transfers (kind, owner_id, from_user, to_user, from_account, to_account, currency, amount, currency_pair, settle,
       sub_account, sub_account_type, direction, client_order_id, time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byClientId = db.prepare('SELECT id FROM transfers WHERE owner_id = ? AND client_order_id = ?');

  const record = (row: {
    kind: string;
    owner: number;
    from: BalanceKey;
    to: BalanceKey;
    amount: Decimal;
    now: number;
    pair?: string;
    settle?: string;
    sub?: number;
    subType?: string;
    direction?: string;
    clientOrderId?: string;
  }): number => {
    // Positional parameters: binding by name costs a third more on this hot path.
    const info = insert.run(
      row.kind,
      row.owner,
      row.from.userId,
      row.to.userId,
      row.from.account,
      row.to.account,
      row.from.currency,
      dec(row.amount),
      row.pair ?? '',
      row.settle ?? '',
      row.sub ?? null,
      row.subType ?? '',
      row.direction ?? '',
      row.clientOrderId ?? null,
      row.now,
    );
    return Number(info.lastInsertRowid);
  };

  /** POST /wallet/transfers: the margin pair / settle rules of the spec. */
  const ownTransfer = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const currency = reqString(body, 'currency', 20);
    const from = reqEnum(body, 'from', TRANSFER_ACCOUNTS);
    const to = reqEnum(body, 'to', TRANSFER_ACCOUNTS);
    const amount = reqAmount(body, 'amount', 8);
    const pairParam = optString(body, 'currency_pair', 40);
    const settleParam = optString(body, 'settle', 10);
    if (from === to) throw new ApiFailure('INVALID_PARAM_VALUE', 'from and to must be different accounts');
    const isContract = (a: TransferAccount) => a === 'futures' || a === 'delivery';
    if (currency !== 'POINT' || !(isContract(from) || isContract(to))) knownCurrency(currency);
    let pair = '';
    if (from === 'margin' || to === 'margin') {
      if (!pairParam)
        throw new ApiFailure('MISSING_REQUIRED_PARAM', 'currency_pair is required when margin is involved');
      if (!MARGIN_PAIRS.includes(pairParam))
        throw new ApiFailure('INVALID_CURRENCY_PAIR', `Unknown margin pair: ${pairParam}`);
      if (!pairParam.split('_').includes(currency)) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `${currency} is not a currency of ${pairParam}`);
      }
      pair = pairParam;
    }
    let settle = '';
    if (isContract(from) || isContract(to)) {
      if (!settleParam)
        throw new ApiFailure('MISSING_REQUIRED_PARAM', 'settle is required when a contract account is involved');
      settle = settleParam.toLowerCase();
      const allowed = from === 'delivery' || to === 'delivery' ? DELIVERY_SETTLES : FUTURES_SETTLES;
      if (!allowed.includes(settle))
        throw new ApiFailure('INVALID_PARAM_VALUE', `settle must be one of ${allowed.join(', ')}`);
      if (currency !== settle.toUpperCase() && currency !== 'POINT') {
        throw new ApiFailure(
          'INVALID_PARAM_VALUE',
          `contract accounts settled in ${settle} take ${settle.toUpperCase()} or POINT`,
        );
      }
    }
    if ((from === 'options' || to === 'options') && currency !== 'USDT') {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'options accounts hold USDT only');
    }
    const keyOf = (account: TransferAccount): BalanceKey => ({
      userId: req.user.id,
      account,
      currency,
      ...(account === 'margin' ? { pair } : {}),
    });
    const label = isContract(from) ? 'FUTURES_BALANCE_NOT_ENOUGH' : 'BALANCE_NOT_ENOUGH';
    const txId = ctx.tx(() => {
      const id = record({
        kind: 'own',
        owner: req.user.id,
        from: keyOf(from),
        to: keyOf(to),
        amount,
        now: req.now,
        pair,
        settle,
      });
      ledger.move(keyOf(from), keyOf(to), amount, 'dnw', String(id), label);
      return id;
    });
    return { tx_id: txId };
  };

  const requireSub = (main: number, subId: number): UserRecord => {
    const sub = users.subOf(main, subId);
    if (!sub) throw new ApiFailure('SUB_ACCOUNT_NOT_FOUND', `Sub-account ${subId} not found`);
    if (sub.state !== 1) throw new ApiFailure('SUB_ACCOUNT_LOCKED', `Sub-account ${subId} is locked`);
    return sub;
  };

  /** POST /wallet/sub_account_transfers (main account keys only). */
  const mainSubTransfer = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const subId = subIdParam(reqString(body, 'sub_account', 20), 'sub_account');
    const subType = optEnum(body, 'sub_account_type', SUB_TYPES) ?? 'spot';
    const currency = reqString(body, 'currency', 20);
    const amount = reqAmount(body, 'amount', 8);
    const direction = reqEnum(body, 'direction', ['to', 'from'] as const);
    const clientOrderId = optString(body, 'client_order_id', 1000);
    if (clientOrderId !== undefined && !CLIENT_ORDER_ID_RE.test(clientOrderId)) {
      throw new ApiFailure('INVALID_CLIENT_ORDER_ID', 'client_order_id must be 1 to 64 letters, digits, - or _');
    }
    knownCurrency(currency);
    const main = req.user.id;
    requireSub(main, subId);
    const mainKey: BalanceKey = { userId: main, account: 'spot', currency };
    const subKey = subAccountKey(subId, subType, currency);
    const [from, to] = direction === 'to' ? [mainKey, subKey] : [subKey, mainKey];
    const txId = ctx.tx(() => {
      // A repeat of a client_order_id never moves funds twice.
      if (clientOrderId !== undefined && byClientId.get(main, clientOrderId)) {
        throw new ApiFailure('DUPLICATE_REQUEST', `client_order_id ${clientOrderId} was already used`);
      }
      const id = record({
        kind: 'main_sub',
        owner: main,
        from,
        to,
        amount,
        now: req.now,
        sub: subId,
        subType,
        direction,
        ...(clientOrderId !== undefined ? { clientOrderId } : {}),
      });
      ledger.move(from, to, amount, 'dnw', String(id));
      return id;
    });
    return { tx_id: txId };
  };

  /** POST /wallet/sub_account_to_sub_account (main key, or the source sub-account's key). */
  const subSubTransfer = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const currency = reqString(body, 'currency', 20);
    const fromId = subIdParam(reqString(body, 'sub_account_from', 20), 'sub_account_from');
    const fromType = reqEnum(body, 'sub_account_from_type', SUB_SUB_TYPES);
    const toId = subIdParam(reqString(body, 'sub_account_to', 20), 'sub_account_to');
    const toType = reqEnum(body, 'sub_account_to_type', SUB_SUB_TYPES);
    const amount = reqAmount(body, 'amount', 8);
    knownCurrency(currency);
    const main = req.caller.mainUserId;
    if (req.caller.isSubAccount && fromId !== req.user.id) {
      throw new ApiFailure('FORBIDDEN', 'A sub-account key can only transfer out of its own sub-account');
    }
    if (fromId === toId && fromType === toType)
      throw new ApiFailure('INVALID_PARAM_VALUE', 'source and destination are the same');
    requireSub(main, fromId);
    requireSub(main, toId);
    const from = subAccountKey(fromId, fromType, currency);
    const to = subAccountKey(toId, toType, currency);
    const txId = ctx.tx(() => {
      const id = record({
        kind: 'sub_sub',
        owner: main,
        from,
        to,
        amount,
        now: req.now,
        sub: fromId,
        subType: fromType,
      });
      ledger.move(
        from,
        to,
        amount,
        'dnw',
        String(id),
        fromType === 'spot' ? 'BALANCE_NOT_ENOUGH' : 'FUTURES_BALANCE_NOT_ENOUGH',
      );
      return id;
    });
    return { tx_id: txId };
  };

  const listSubTransfers = (req: PrivateRouteRequest) => {
    const { fromMs, toMs } = timeRange(req.query, req.now);
    const { limit, offset } = paging(req.query);
    let subIds: number[] | undefined;
    if (req.query.sub_uid) subIds = req.query.sub_uid.split(',').map((s) => subIdParam(s.trim(), 'sub_uid'));
    if (req.caller.isSubAccount) subIds = [req.user.id];
    const rows = db
      .prepare(
        `SELECT * FROM transfers WHERE owner_id = ? AND kind = 'main_sub' AND time >= ? AND time <= ? ORDER BY id DESC`,
      )
      .all(req.caller.mainUserId, fromMs, toMs) as TransferRow[];
    return rows
      .filter((r) => !subIds || subIds.includes(r.sub_account ?? -1))
      .slice(offset, offset + limit)
      .map((r) => ({
        timest: secondsString(r.time),
        uid: String(r.owner_id),
        sub_account: String(r.sub_account),
        sub_account_type: r.sub_account_type,
        currency: r.currency,
        amount: r.amount,
        direction: r.direction,
        source: r.source,
        client_order_id: r.client_order_id ?? '',
        status: 'success',
      }));
  };

  const orderStatus = (req: PrivateRouteRequest) => {
    const clientOrderId = req.query.client_order_id ?? '';
    const txIdParam = req.query.tx_id ?? '';
    if (clientOrderId === '' && txIdParam === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'client_order_id or tx_id is required');
    }
    if (txIdParam !== '' && !/^\d{1,18}$/.test(txIdParam))
      throw new ApiFailure('INVALID_PARAM_VALUE', 'tx_id must be a number');
    const main = req.caller.mainUserId;
    const row = (
      txIdParam !== ''
        ? db.prepare('SELECT * FROM transfers WHERE id = ? AND owner_id = ?').get(Number(txIdParam), main)
        : db.prepare('SELECT * FROM transfers WHERE client_order_id = ? AND owner_id = ?').get(clientOrderId, main)
    ) as TransferRow | undefined;
    const visible =
      row &&
      (clientOrderId === '' || row.client_order_id === clientOrderId) &&
      (!req.caller.isSubAccount || row.from_user === req.user.id || row.to_user === req.user.id);
    if (!visible) throw new ApiFailure('ORDER_NOT_FOUND', 'Transfer not found');
    return { tx_id: String(row.id), status: row.status };
  };

  return [
    { method: 'POST', path: '/wallet/transfers', auth: 'private', permission: 'wallet', handler: ownTransfer },
    {
      method: 'POST',
      path: '/wallet/sub_account_transfers',
      auth: 'private',
      permission: 'wallet',
      mainOnly: true,
      handler: mainSubTransfer,
    },
    {
      method: 'GET',
      path: '/wallet/sub_account_transfers',
      auth: 'private',
      permission: 'wallet',
      handler: listSubTransfers,
    },
    {
      method: 'POST',
      path: '/wallet/sub_account_to_sub_account',
      auth: 'private',
      permission: 'wallet',
      handler: subSubTransfer,
    },
    { method: 'GET', path: '/wallet/order_status', auth: 'private', permission: 'wallet', handler: orderStatus },
  ];
}
