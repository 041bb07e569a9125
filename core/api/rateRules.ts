/**
 * Maps a request to its limiter bucket using the ONE rate-limit table (shared/platform/limits.ts),
 * which the sandbox enforces too. The client serves one key (one user), so buckets need no user id.
 */
import { RATE_LIMITS, rateLimitKeyFor } from '../../shared/platform/limits';
import type { QueryParams } from './client';
import type { RateRule } from './limiter';

/** Path parameters collapse so "/spot/orders/1" and "/spot/orders/2" count as one endpoint. */
const PATTERNS: readonly [RegExp, string][] = [
  [/^\/withdrawals\/(?!push$)[^/]+$/, '/withdrawals/{id}'],
  [/^\/sub_accounts\/(?!unified_mode$)[^/]+\/keys\/[^/]+$/, '/sub_accounts/{user_id}/keys/{key}'],
  [/^\/sub_accounts\/(?!unified_mode$)[^/]+(\/[a-z_]+)?$/, '/sub_accounts/{user_id}$1'],
  [/^\/spot\/orders\/[^/]+$/, '/spot/orders/{id}'],
  [/^\/spot\/currencies\/[^/]+$/, '/spot/currencies/{currency}'],
  [/^\/spot\/currency_pairs\/[^/]+$/, '/spot/currency_pairs/{pair}'],
  [/^\/account\/stp_groups\/[^/]+\/users$/, '/account/stp_groups/{id}/users'],
];

export const endpointPattern = (path: string): string => {
  for (const [pattern, replacement] of PATTERNS) {
    if (pattern.test(path)) return path.replace(pattern, replacement);
  }
  return path;
};

export const classifyRequest = (
  method: string,
  path: string,
  query: QueryParams | undefined,
  body: unknown,
  isPublic: boolean,
): RateRule => {
  const name = rateLimitKeyFor(method, path, isPublic);
  const rule = RATE_LIMITS[name];
  let key: string = name;
  if (rule.scope === 'endpoint') key = `${name} ${method.toUpperCase()} ${endpointPattern(path)}`;
  else if (rule.scope === 'group_market') {
    const pair =
      (typeof body === 'object' && body !== null && 'currency_pair' in body ? String(body.currency_pair) : undefined) ??
      (query?.currency_pair === undefined ? '' : String(query.currency_pair));
    key = `${name} ${pair}`;
  }
  return { key, scope: rule.description, limit: rule.limit, windowMs: rule.windowMs };
};
