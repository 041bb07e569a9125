/**
 * The platform's request-rate limits (spec "Limits → Rate limits", api-facts §5), as ONE table.
 * The sandbox enforces exactly this table and the app's API client mirrors it, so both sides
 * agree on which bucket a request falls in. Pure data and functions: imported by Node and by the
 * app's main process alike (no Node, DOM or Electron imports here).
 */

/** How requests are grouped inside one rule. */
export type RateLimitScope =
  /** Each endpoint (method + path pattern) has its own counter. */
  | 'endpoint'
  /** Every endpoint of the rule shares one counter. */
  | 'group'
  /** One shared counter per market (`currency_pair` of the request). */
  | 'group_market';

export interface RateLimitRule {
  readonly limit: number;
  readonly windowMs: number;
  readonly scope: RateLimitScope;
  /** Public endpoints are counted per client IP, private ones per user id (main and sub separately). */
  readonly keyedBy: 'ip' | 'user';
  readonly description: string;
}

export const RATE_LIMITS = {
  public: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'ip',
    description: 'all public endpoints (IP based), per endpoint',
  },
  withdraw: { limit: 1, windowMs: 3_000, scope: 'endpoint', keyedBy: 'user', description: 'POST /withdrawals' },
  withdrawPush: {
    limit: 1,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'POST /withdrawals/push',
  },
  walletHeavy: {
    limit: 80,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'wallet transfers, total balance and sub-account balances, per endpoint',
  },
  walletOther: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other wallet endpoints, per endpoint',
  },
  spotPlace: {
    limit: 10,
    windowMs: 1_000,
    scope: 'group_market',
    keyedBy: 'user',
    description: 'spot order placement (single or batch) and amendment, per user and market',
  },
  spotCancel: {
    limit: 200,
    windowMs: 1_000,
    scope: 'group',
    keyedBy: 'user',
    description: 'spot order cancellation (single or batch)',
  },
  spotOther: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other spot/margin private endpoints, per endpoint',
  },
  futuresPlace: {
    limit: 100,
    windowMs: 1_000,
    scope: 'group',
    keyedBy: 'user',
    description: 'perpetual placement and amendment',
  },
  futuresCancel: {
    limit: 200,
    windowMs: 1_000,
    scope: 'group',
    keyedBy: 'user',
    description: 'perpetual cancellation',
  },
  futuresOther: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other perpetual private endpoints, per endpoint',
  },
  deliveryPlace: { limit: 500, windowMs: 10_000, scope: 'group', keyedBy: 'user', description: 'delivery placement' },
  deliveryCancel: {
    limit: 500,
    windowMs: 10_000,
    scope: 'group',
    keyedBy: 'user',
    description: 'delivery cancellation',
  },
  deliveryOther: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other delivery private endpoints, per endpoint',
  },
  optionsPlace: { limit: 200, windowMs: 1_000, scope: 'group', keyedBy: 'user', description: 'options placement' },
  optionsCancel: { limit: 200, windowMs: 1_000, scope: 'group', keyedBy: 'user', description: 'options cancellation' },
  optionsOther: {
    limit: 200,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other options private endpoints, per endpoint',
  },
  subAccount: {
    limit: 80,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'sub-account group, per endpoint',
  },
  unifiedLoans: {
    limit: 15,
    windowMs: 10_000,
    scope: 'group',
    keyedBy: 'user',
    description: 'unified borrow or repay (POST /unified/loans)',
  },
  otherPrivate: {
    limit: 150,
    windowMs: 10_000,
    scope: 'endpoint',
    keyedBy: 'user',
    description: 'other private endpoints (earn, collateral, …), per endpoint',
  },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitKey = keyof typeof RATE_LIMITS;

/**
 * TOO_FAST ("withdrawal frequency exceeded"): the platform does not publish its rule. The sandbox
 * reads it as one withdrawal a minute to the same address, and the app tells the person exactly
 * that (and counts the minute down), so the two never disagree.
 */
export const SAME_ADDRESS_WITHDRAWAL = {
  windowMs: 60_000,
  words: 'one withdrawal a minute to the same address',
} as const;

/** Response headers carrying the limiter's state (api-facts §5). */
export const RATE_LIMIT_HEADERS = {
  remain: 'x-gate-ratelimit-requests-remain',
  limit: 'x-gate-ratelimit-limit',
  /** Unix seconds: when the window reopens if exceeded, otherwise the current server time. */
  reset: 'x-gate-ratelimit-reset-timestamp',
} as const;

/** The wallet endpoints limited to 80 per 10 s (the spec lists them by name). */
const WALLET_HEAVY = new Set([
  'POST /wallet/transfers',
  'POST /wallet/sub_account_transfers',
  'POST /wallet/sub_account_to_sub_account',
  'GET /wallet/total_balance',
  'GET /wallet/sub_account_balances',
  'GET /wallet/sub_account_margin_balances',
  'GET /wallet/sub_account_futures_balances',
  'GET /wallet/sub_account_cross_margin_balances',
]);

/**
 * Which rule a request falls under. `path` is the path after `/api/v4` (e.g. `/wallet/deposits`),
 * without the query string; `isPublic` is true for unsigned market-data endpoints.
 */
export function rateLimitKeyFor(method: string, path: string, isPublic: boolean): RateLimitKey {
  if (isPublic) return 'public';
  const m = method.toUpperCase();
  const p = path.startsWith('/api/v4/') ? path.slice('/api/v4'.length) : path;
  if (m === 'POST' && p === '/withdrawals') return 'withdraw';
  if (m === 'POST' && p === '/withdrawals/push') return 'withdrawPush';
  if (p.startsWith('/wallet/')) return WALLET_HEAVY.has(`${m} ${p}`) ? 'walletHeavy' : 'walletOther';
  if (p.startsWith('/withdrawals')) return 'walletOther';
  if (p === '/sub_accounts' || p.startsWith('/sub_accounts/')) return 'subAccount';
  if (p.startsWith('/spot/')) {
    if (
      (m === 'POST' && (p === '/spot/orders' || p === '/spot/batch_orders' || p === '/spot/amend_batch_orders')) ||
      (m === 'PATCH' && p.startsWith('/spot/orders/'))
    )
      return 'spotPlace';
    if (
      (m === 'DELETE' && (p === '/spot/orders' || p.startsWith('/spot/orders/'))) ||
      (m === 'POST' && p === '/spot/cancel_batch_orders')
    )
      return 'spotCancel';
    return 'spotOther';
  }
  if (p.startsWith('/margin/')) return 'spotOther';
  const contract = /^\/(futures|delivery)\/[^/]+(\/.*)$/.exec(p);
  if (contract) {
    const [, group, rest] = contract;
    const placing =
      (m === 'POST' && (rest === '/orders' || rest === '/batch_orders')) ||
      (m === 'PUT' && rest?.startsWith('/orders/'));
    const cancelling =
      (m === 'DELETE' && (rest === '/orders' || rest?.startsWith('/orders/'))) ||
      (m === 'POST' && rest === '/batch_cancel_orders');
    if (group === 'futures') return placing ? 'futuresPlace' : cancelling ? 'futuresCancel' : 'futuresOther';
    return placing ? 'deliveryPlace' : cancelling ? 'deliveryCancel' : 'deliveryOther';
  }
  if (p.startsWith('/options/')) {
    if (m === 'POST' && p === '/options/orders') return 'optionsPlace';
    if (m === 'DELETE' && (p === '/options/orders' || p.startsWith('/options/orders/'))) return 'optionsCancel';
    return 'optionsOther';
  }
  if (m === 'POST' && p === '/unified/loans') return 'unifiedLoans';
  return 'otherPrivate';
}
