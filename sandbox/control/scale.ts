/**
 * POST /sandbox/scale: seeds a large, realistic treasury in one transaction — settled deposits and
 * withdrawals spread evenly over the last `days` days, and funded sub-accounts — for benchmarks and
 * tests of large lists (docs/sandbox.md, "Control API").
 *
 * Rows go straight into the tables the API reads (deposits, withdrawals, users, balances) with
 * statements prepared once, in the shape the pipelines leave a finished record: same ids, txids,
 * addresses, statuses, routes and time stamps, so the API cannot tell them from organic ones. Like
 * the seed's history, the settled deposits and withdrawals do not move balances (the user's balances
 * are left as they are); each new sub-account is credited a small spot balance with a ledger entry.
 */
import Decimal from 'decimal.js';
import { type ChainDef, type CurrencyDef, chainDef, currencyDef } from '../catalog';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { DAY_MS, optInt, optString } from '../http/params';
import { DEPOSIT_ROUTES, type Pipelines, WITHDRAWAL_ROUTES } from '../pipelines/pipelines';
import { getMeta } from '../store/db';
import type { UserRecord } from '../store/users';
import { addressOf, depositAddressOf, ensureDepositAddresses } from '../wallet/addresses';
import { withdrawalId } from '../withdrawals/rules';

export const SCALE_LIMITS = { deposits: 200_000, withdrawals: 200_000, sub_accounts: 5_000, days: 3_650 } as const;

/** Withdrawals go to a handful of external addresses, as a treasury's do. */
const WITHDRAWAL_ADDRESS_POOL = 16;
const SUB_LOGIN_PREFIX = 'scale_sub_';

export interface ScaleRequest {
  readonly user: UserRecord;
  readonly currency: CurrencyDef;
  readonly chain: ChainDef;
  readonly deposits: number;
  readonly withdrawals: number;
  readonly subAccounts: number;
  readonly days: number;
}

export interface ScaleAnswer {
  deposits: number;
  withdrawals: number;
  sub_accounts: number;
  /** Unix seconds: every seeded record's time lies in [from, to]. */
  from: number;
  to: number;
}

/**
 * Reads and checks the body (the user is read by the caller: the control plane's userParam, or the
 * seeded main account when user_id is absent); throws ApiFailure, nothing changed, on bad input.
 */
export function parseScaleBody(b: Record<string, unknown>, user: UserRecord): ScaleRequest {
  const count = (name: keyof typeof SCALE_LIMITS, def: number) =>
    optInt(b, name, { min: name === 'days' ? 1 : 0, max: SCALE_LIMITS[name] }) ?? def;
  const deposits = count('deposits', 0);
  const withdrawals = count('withdrawals', 0);
  const subAccounts = count('sub_accounts', 0);
  const days = count('days', 365);
  if (user.parentId !== null && subAccounts > 0)
    throw new ApiFailure('INVALID_PARAM_VALUE', 'sub_accounts: sub-accounts belong to main accounts');
  if (user.parentId !== null && withdrawals > 0)
    throw new ApiFailure('INVALID_PARAM_VALUE', 'withdrawals: sub-accounts cannot withdraw');

  const code = optString(b, 'currency', 20) || 'USDT';
  const currency = currencyDef(code);
  if (!currency) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${code}`);
  if (withdrawals > 0 && currency.lowCap)
    throw new ApiFailure('INVALID_CURRENCY', `Currency not supported for API withdrawal: ${code}`);

  const usable = (c: ChainDef) =>
    !c.disabled && !(deposits > 0 && c.depositDisabled) && !(withdrawals > 0 && c.withdrawDisabled);
  const chainName = optString(b, 'chain', 20) || undefined;
  let chain: ChainDef | undefined;
  if (chainName === undefined) {
    chain = currency.chains.find(usable);
    if (!chain) throw new ApiFailure('INVALID_PARAM_VALUE', `No chain of ${code} is open for the records asked for`);
  } else {
    chain = chainDef(currency, chainName);
    if (!chain) throw new ApiFailure('INVALID_PARAM_VALUE', `Chain ${chainName} is not available for ${code}`);
    if (chain.disabled || (deposits > 0 && chain.depositDisabled))
      throw new ApiFailure('INVALID_PARAM_VALUE', `Deposits on ${chainName} are suspended`);
    if (withdrawals > 0 && chain.withdrawDisabled)
      throw new ApiFailure('INVALID_PARAM_VALUE', `Withdrawals of ${code} on ${chainName} are suspended`);
  }
  return { user, currency, chain, deposits, withdrawals, subAccounts, days };
}

/** The seeded main account (`desk_main`): the owner of the seed's key. */
export function seededMainAccount(ctx: SandboxContext): UserRecord {
  const key = getMeta(ctx.db, 'seed_key');
  const userId = key ? ctx.users.key(key)?.userId : undefined;
  const user = userId === undefined ? undefined : ctx.users.get(userId);
  if (!user) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: user_id');
  return user;
}

/** Amounts as integers of the chain's smallest unit, written back as canonical decimal strings. */
function unitsOf(value: string, decimals: number): number {
  const units = new Decimal(value).times(new Decimal(10).pow(decimals));
  return units.gt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : units.ceil().toNumber();
}

function amountText(units: number, decimals: number, scale: number): string {
  if (decimals === 0) return String(units);
  const whole = Math.floor(units / scale);
  const frac = String(units % scale)
    .padStart(decimals, '0')
    .replace(/0+$/, '');
  return frac === '' ? String(whole) : `${whole}.${frac}`;
}

const routeMs = (steps: readonly { ms?: number }[]): number => steps.reduce((sum, s) => sum + (s.ms ?? 0), 0);

/** Time of record i of n, spread evenly over (fromMs, fromMs + spanMs]: the last one at the end. */
const spread = (fromMs: number, spanMs: number, i: number, n: number): number =>
  fromMs + Math.floor(((i + 1) * spanMs) / n);

/** Inserts everything in ONE transaction (the caller's ctx.tx). */
export function seedScale(ctx: SandboxContext, pipelines: Pipelines, r: ScaleRequest): ScaleAnswer {
  const { db, ledger, users } = ctx;
  const { user, currency, chain } = r;
  const toMs = ctx.clock.now();
  const spanMs = r.days * DAY_MS;
  const fromMs = toMs - spanMs;
  const decimals = chain.decimal;
  const scale = 10 ** decimals;
  const reviewUnits = unitsOf(currency.reviewThreshold, decimals);

  return ctx.tx(() => {
    if (r.deposits > 0) {
      // Every deposit comes to the user's own address of the chain (memo on memo chains).
      ensureDepositAddresses(ctx, user.id);
      const to = depositAddressOf(ctx, user.id, currency.currency, chain.chain)!;
      const base = unitsOf(Decimal.max(1, currency.minDeposit).toFixed(), decimals);
      // Created early enough to have finished their route (23 s on chain) by now.
      const depositSpan = spanMs - routeMs(DEPOSIT_ROUTES.chain!);
      const insert = db.prepare(
        `INSERT INTO deposits (seq, id, user_id, currency, chain, address, memo, amount, txid, status, timestamp, route, credited, next_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'DONE', ?, ?, 1, NULL)`,
      );
      let seq = (db.prepare('SELECT MAX(seq) AS s FROM deposits').get() as { s: number | null }).s ?? 0;
      for (let i = 0; i < r.deposits; i += 1) {
        seq += 1;
        const id = `d${30_000_000 + seq}`;
        const units = base + seq; // distinct, also across calls
        insert.run(
          seq,
          id,
          user.id,
          currency.currency,
          chain.chain,
          to.address,
          to.memo,
          amountText(units, decimals, scale),
          pipelines.txid(chain.chain, id),
          spread(fromMs, depositSpan, i, r.deposits),
          units >= reviewUnits ? 'review' : 'chain',
        );
      }
    }

    if (r.withdrawals > 0) {
      const pool = Array.from({ length: WITHDRAWAL_ADDRESS_POOL }, (_, k) => ({
        address: addressOf(ctx, chain, `scale-withdrawal:${chain.chain}:${k}`),
        memo: chain.tag ? String(7_000_000 + k) : '',
      }));
      const base = unitsOf(currency.withdrawMin, decimals);
      const faceUnits = unitsOf(new Decimal(currency.reviewThreshold).times(5).toFixed(), decimals);
      const fixedFee = new Decimal(currency.withdrawPercent).isZero() ? chain.withdrawFix : undefined;
      const durations = { chain: 0, review: 0, face: 0 };
      for (const k of Object.keys(durations) as (keyof typeof durations)[])
        durations[k] = routeMs(WITHDRAWAL_ROUTES[k]!);
      // Asked for early enough to be DONE by now (18 s on chain; longer review routes end at `to`).
      const withdrawalSpan = spanMs - durations.chain;
      const insert = db.prepare(
        `INSERT INTO withdrawals (seq, id, user_id, withdraw_order_id, currency, chain, address, memo, amount, fee, status,
           txid, block_number, asset_class, timestamp, timestamp2, internal_user_id, route, next_at)
         VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, 'DONE', ?, ?, '', ?, ?, NULL, ?, NULL)`,
      );
      let seq = (db.prepare('SELECT MAX(seq) AS s FROM withdrawals').get() as { s: number | null }).s ?? 0;
      for (let i = 0; i < r.withdrawals; i += 1) {
        seq += 1;
        const id = withdrawalId(seq);
        const units = base + seq; // distinct, also across calls
        const amount = amountText(units, decimals, scale);
        const fee =
          fixedFee ??
          new Decimal(chain.withdrawFix)
            .plus(new Decimal(amount).times(currency.withdrawPercent).div(100))
            .toDecimalPlaces(decimals, Decimal.ROUND_UP)
            .toFixed();
        const route = units >= faceUnits ? 'face' : units >= reviewUnits ? 'review' : 'chain';
        const at = spread(fromMs, withdrawalSpan, i, r.withdrawals);
        const done = Math.min(at + durations[route], toMs);
        const a = pool[i % WITHDRAWAL_ADDRESS_POOL]!;
        insert.run(
          seq,
          id,
          user.id,
          currency.currency,
          chain.chain,
          a.address,
          a.memo,
          amount,
          fee,
          pipelines.txid(chain.chain, id),
          String(18_000_000 + (Math.floor(done / 12_000) % 1_000_000)),
          at,
          done,
          route,
        );
      }
    }

    if (r.subAccounts > 0) {
      // Login names are unique across the sandbox: continue after the highest scale_sub_ number.
      const last = db
        .prepare(
          `SELECT MAX(CAST(substr(login_name, ${SUB_LOGIN_PREFIX.length + 1}) AS INTEGER)) AS n FROM users
           WHERE login_name GLOB '${SUB_LOGIN_PREFIX}[0-9]*'`,
        )
        .get() as { n: number | null };
      const first = (last.n ?? 0) + 1;
      for (let i = 0; i < r.subAccounts; i += 1) {
        const n = first + i;
        const loginName = `${SUB_LOGIN_PREFIX}${String(n).padStart(5, '0')}`;
        const sub = users.createUser({
          parentId: user.id,
          loginName,
          remark: `Scale sub-account ${n}`,
          email: user.email,
        });
        ensureDepositAddresses(ctx, sub.id);
        ledger.credit(
          { userId: sub.id, account: 'spot', currency: currency.currency },
          String(10 + n),
          'sandbox_credit',
        );
      }
    }

    return {
      deposits: r.deposits,
      withdrawals: r.withdrawals,
      sub_accounts: r.subAccounts,
      from: Math.floor(fromMs / 1000),
      to: Math.floor(toMs / 1000),
    };
  });
}
