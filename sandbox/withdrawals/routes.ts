/**
 * The withdrawal group: POST /withdrawals (every check a real platform makes), DELETE
 * /withdrawals/{id} (202, CANCELPEND → CANCEL with refund) and POST /withdrawals/push (UID transfer
 * between main accounts). The checks, in order, are listed in docs/sandbox.md.
 */
import Decimal from 'decimal.js';
import { isWithdrawalCancellable } from '../../shared/platform/statusTables';
import { chainDef, currencyDef } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { bodyObject, optEnum, optString, reqAmount, reqInt, reqString } from '../http/params';
import type { PrivateRouteRequest, RouteDef } from '../http/route';
import { lockedDeposits, type Pipelines, WITHDRAWAL_ROUTES, withdrawalRouteFor } from '../pipelines/pipelines';
import { dec } from '../store/ledger';
import { ownerOfAddress } from '../wallet/addresses';
import { type WithdrawalDbRow, withdrawalCancelForm, withdrawalCreateForm } from './format';
import { dayUsage, SAME_ADDRESS_INTERVAL_MS, withdrawalId } from './rules';

const WITHDRAW_ORDER_ID_RE = /^[0-9A-Za-z_.-]{1,32}$/;

export function withdrawalRoutes(ctx: SandboxContext, pipelines: Pipelines): RouteDef[] {
  const { db, ledger, users } = ctx;

  const withdraw = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const amount = reqAmount(body, 'amount', 30);
    const currency = reqString(body, 'currency', 20);
    const chain = reqString(body, 'chain', 20);
    const address = reqString(body, 'address', 256);
    const memo = optString(body, 'memo', 128) ?? '';
    const orderId = optString(body, 'withdraw_order_id', 1000) ?? '';
    const assetClass = optEnum(body, 'asset_class', ['SPOT', 'PILOT'] as const) ?? '';
    if (orderId !== '' && !WITHDRAW_ORDER_ID_RE.test(orderId)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'withdraw_order_id: at most 32 characters from 0-9 A-Z a-z _ - .');
    }
    const def = currencyDef(currency);
    if (!def || def.lowCap)
      throw new ApiFailure('INVALID_CURRENCY', `Currency not supported for API withdrawal: ${currency}`);
    const ch = chainDef(def, chain);
    if (!ch) throw new ApiFailure('INVALID_PARAM_VALUE', `Chain ${chain} is not available for ${currency}`);
    if (ch.disabled || ch.withdrawDisabled) {
      throw new ApiFailure('API_WITHDRAW_DISABLED', `Withdrawals of ${currency} on ${chain} are suspended`);
    }
    if (amount.decimalPlaces() > ch.decimal) {
      throw new ApiFailure('INVALID_PRECISION', `amount allows at most ${ch.decimal} decimal places on ${chain}`);
    }
    if (ch.tag && memo === '') throw new ApiFailure('MISSING_REQUIRED_PARAM', `${ch.tag} is required on ${chain}`);
    const userId = req.user.id;

    return ctx.tx(() => {
      if (
        orderId !== '' &&
        db.prepare('SELECT 1 FROM withdrawals WHERE user_id = ? AND withdraw_order_id = ?').get(userId, orderId)
      ) {
        // Never executed twice: the client reconciles with GET /wallet/withdrawals?withdraw_order_id=…
        throw new ApiFailure('DUPLICATE_REQUEST', `withdraw_order_id ${orderId} was already used`);
      }
      if (amount.lt(def.withdrawMin))
        throw new ApiFailure('AMOUNT_TOO_LITTLE', `Minimum withdrawal is ${def.withdrawMin} ${currency}`);
      if (amount.gt(def.withdrawEachTimeLimit)) {
        throw new ApiFailure(
          'WITHDRAWAL_OVER_LIMIT',
          `Maximum per withdrawal is ${def.withdrawEachTimeLimit} ${currency}`,
        );
      }
      if (dayUsage(ctx, userId, currency, req.now).plus(amount).gt(def.withdrawDayLimit)) {
        throw new ApiFailure(
          'WITHDRAWAL_OVER_LIMIT',
          `Daily withdrawal limit of ${def.withdrawDayLimit} ${currency} exceeded`,
        );
      }
      const receiver = ownerOfAddress(ctx, ch, address, memo);
      if (receiver === userId)
        throw new ApiFailure('INVALID_PARAM_VALUE', 'Cannot withdraw to your own deposit address');
      const saved = db
        .prepare(
          "SELECT 1 FROM saved_addresses WHERE user_id = ? AND currency = ? AND chain = ? AND address = ? AND verified = '1'",
        )
        .get(userId, currency, chain, address);
      const used = db
        .prepare(
          "SELECT 1 FROM withdrawals WHERE user_id = ? AND chain = ? AND address = ? AND status = 'DONE' LIMIT 1",
        )
        .get(userId, chain, address);
      if (!saved && !used) {
        throw new ApiFailure(
          'ADDRESS_NOT_USED',
          'Only used or verified saved addresses are allowed for API withdrawal',
        );
      }
      const recent = db
        .prepare('SELECT 1 FROM withdrawals WHERE user_id = ? AND chain = ? AND address = ? AND timestamp > ? LIMIT 1')
        .get(userId, chain, address, req.now - SAME_ADDRESS_INTERVAL_MS);
      if (recent) throw new ApiFailure('TOO_FAST', 'Withdrawals to the same address are limited to one a minute');
      const fee =
        receiver !== undefined
          ? new Decimal(0)
          : new Decimal(ch.withdrawFix)
              .plus(amount.times(def.withdrawPercent).div(100))
              .toDecimalPlaces(ch.decimal, Decimal.ROUND_UP);
      const total = amount.plus(fee);
      const spot = { userId, account: 'spot' as const, currency };
      const withdrawable = new Decimal(ledger.get(spot).available).minus(lockedDeposits(ctx, userId, currency));
      if (withdrawable.lt(total)) {
        throw new ApiFailure(
          'BALANCE_NOT_ENOUGH',
          `Not enough balance: ${dec(total)} ${currency} needed including the fee of ${dec(fee)}`,
        );
      }
      const route = withdrawalRouteFor({ internal: receiver !== undefined, address, currency, amount });
      const { status, nextAt } = pipelines.firstStep(WITHDRAWAL_ROUTES, route, req.now);
      const seq = ((db.prepare('SELECT MAX(seq) AS s FROM withdrawals').get() as { s: number | null }).s ?? 0) + 1;
      const id = withdrawalId(seq);
      db.prepare(
        `INSERT INTO withdrawals (seq, id, user_id, withdraw_order_id, currency, chain, address, memo, amount, fee, status,
           asset_class, timestamp, internal_user_id, route, next_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        seq,
        id,
        userId,
        orderId,
        currency,
        chain,
        address,
        memo,
        dec(amount),
        dec(fee),
        status,
        assetClass,
        req.now,
        receiver ?? null,
        route,
        nextAt,
      );
      ledger.debit(spot, total, 'withdraw', id);
      const row = db.prepare('SELECT * FROM withdrawals WHERE seq = ?').get(seq) as WithdrawalDbRow;
      return withdrawalCreateForm(row);
    });
  };

  const cancel = (req: PrivateRouteRequest) => {
    const id = req.params.withdrawal_id ?? '';
    return ctx.tx(() => {
      const row = db.prepare('SELECT * FROM withdrawals WHERE id = ? AND user_id = ?').get(id, req.user.id) as
        | WithdrawalDbRow
        | undefined;
      if (!row) throw new ApiFailure('INVALID_WITHDRAW_ID', `Withdrawal ${id} not found`);
      if (!isWithdrawalCancellable(row.status)) {
        throw new ApiFailure(
          'INVALID_WITHDRAW_CANCEL_STATUS',
          `Withdrawal ${id} cannot be cancelled in status ${row.status}`,
        );
      }
      pipelines.startCancel(row.seq, req.now);
      return withdrawalCancelForm(
        db.prepare('SELECT * FROM withdrawals WHERE seq = ?').get(row.seq) as WithdrawalDbRow,
      );
    });
  };

  const push = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const receiveUid = reqInt(body, 'receive_uid', { min: 1 });
    const currency = reqString(body, 'currency', 20);
    const amount = reqAmount(body, 'amount', 8);
    const def = currencyDef(currency);
    if (!def) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${currency}`);
    if (receiveUid === req.user.id) throw new ApiFailure('INVALID_PARAM_VALUE', 'Cannot push to yourself');
    const receiver = users.get(receiveUid);
    if (!receiver) throw new ApiFailure('INVALID_PARAM_VALUE', `User ${receiveUid} does not exist`);
    if (receiver.parentId !== null)
      throw new ApiFailure('INVALID_PARAM_VALUE', 'UID transfers go between main accounts only');
    const id = ctx.tx(() => {
      ledger.debit({ userId: req.user.id, account: 'spot', currency }, amount, 'push_out', `push:${receiveUid}`);
      return pipelines.createPush({
        pushUid: req.user.id,
        receiveUid,
        currency,
        amount: dec(amount),
        route: receiver.refusePush ? 'refuse' : 'accept',
        now: req.now,
      });
    });
    return { id: String(id) };
  };

  return [
    {
      method: 'POST',
      path: '/withdrawals',
      auth: 'private',
      permission: 'withdrawal',
      mainOnly: true,
      handler: withdraw,
    },
    {
      method: 'DELETE',
      path: '/withdrawals/:withdrawal_id',
      auth: 'private',
      permission: 'withdrawal',
      mainOnly: true,
      status: 202,
      handler: cancel,
    },
    {
      method: 'POST',
      path: '/withdrawals/push',
      auth: 'private',
      permission: 'withdrawal',
      mainOnly: true,
      handler: push,
    },
  ];
}
