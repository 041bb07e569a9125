/** Withdrawal rules shared by POST /withdrawals and GET /wallet/withdraw_status. */

import Decimal from 'decimal.js';
import { SAME_ADDRESS_WITHDRAWAL } from '../../shared/platform/limits';
import type { SandboxContext } from '../context';
import { DAY_MS } from '../http/params';

/** Withdrawal ids the platform prints: w + digits. */
export const withdrawalId = (seq: number): string => `w${20_000_000 + seq}`;

/** A repeat to the same address within this window is refused with TOO_FAST (what the app says too). */
export const SAME_ADDRESS_INTERVAL_MS = SAME_ADDRESS_WITHDRAWAL.windowMs;

/** Amount withdrawn today (UTC day of business time), excluding cancelled and rejected ones. */
export function dayUsage(ctx: SandboxContext, userId: number, currency: string, now: number): Decimal {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const rows = ctx.db
    .prepare(
      "SELECT amount FROM withdrawals WHERE user_id = ? AND currency = ? AND timestamp >= ? AND status NOT IN ('CANCEL', 'REJECT')",
    )
    .all(userId, currency, dayStart) as { amount: string }[];
  return rows.reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
}
