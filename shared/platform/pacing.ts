/**
 * Plain words for the platform's pacing, from the ONE rate-limit table (limits.ts): what a window
 * allows ("one withdrawal every 3 s") and which windows matter to what the person is doing. The
 * renderer's countdowns and rate-limit badge and main's TOO_FAST explanation use these, so the words
 * always name the real window of the endpoint.
 */
import { RATE_LIMITS, type RateLimitKey } from './limits';

/** "3 s", "1 s", "500 ms". */
export const windowWords = (ms: number): string =>
  ms >= 1000 ? `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s` : `${ms} ms`;

const NOUN: Partial<Record<RateLimitKey, [string, string]>> = {
  withdraw: ['withdrawal', 'withdrawals'],
  withdrawPush: ['transfer to another user', 'transfers to other users'],
  spotPlace: ['order placement or amendment per pair', 'order placements or amendments per pair'],
  spotCancel: ['cancellation', 'cancellations'],
  walletHeavy: ['request to this endpoint', 'requests to this endpoint'],
  subAccount: ['request to this endpoint', 'requests to this endpoint'],
};

/** "one withdrawal every 3 s", "10 order placements or amendments per pair every 1 s". */
export const allowanceWords = (rule: RateLimitKey): string => {
  const { limit, windowMs } = RATE_LIMITS[rule];
  const [one, many] = NOUN[rule] ?? ['request', 'requests'];
  return limit === 1 ? `one ${one} every ${windowWords(windowMs)}` : `${limit} ${many} every ${windowWords(windowMs)}`;
};

/** The rule an app operation's writes fall under, for the pacing of that action. */
export const OPERATION_RULE: Readonly<Record<string, RateLimitKey>> = {
  'funding.withdraw': 'withdraw',
  'funding.push': 'withdrawPush',
  'transfers.send': 'walletHeavy',
  'trade.placeOrder': 'spotPlace',
  'trade.amendOrder': 'spotPlace',
  'trade.cancelOrder': 'spotCancel',
  'trade.cancelAll': 'spotCancel',
  // Trigger orders (/spot/price_orders) count among the other spot endpoints.
  'trade.placeTrigger': 'spotOther',
  'trade.cancelTrigger': 'spotOther',
  'trade.cancelAllTriggers': 'spotOther',
};

/**
 * The rate-limit windows that matter on each screen. A window of one request per few seconds (a
 * withdrawal, a UID transfer) is spent by a single action: it matters only where that action is made,
 * never as "0 % left" elsewhere.
 */
const SCREEN_RULES: Readonly<Record<string, readonly RateLimitKey[]>> = {
  withdrawals: ['withdraw', 'withdrawPush', 'walletOther', 'walletHeavy'],
  trade: ['spotPlace', 'spotCancel', 'spotOther', 'public'],
  transfers: ['walletHeavy', 'walletOther', 'subAccount'],
  subAccounts: ['subAccount', 'walletHeavy', 'walletOther'],
};
const SINGLE_SHOT: readonly RateLimitKey[] = ['withdraw', 'withdrawPush'];

export const rulesThatMatter = (screen: string): readonly RateLimitKey[] =>
  SCREEN_RULES[screen] ?? (Object.keys(RATE_LIMITS) as RateLimitKey[]).filter((rule) => !SINGLE_SHOT.includes(rule));

/** The rule of a limiter bucket (its key starts with the rule's name). */
export const ruleOfBucket = (bucketKey: string): RateLimitKey | undefined => {
  const name = bucketKey.split(' ')[0] ?? '';
  return name in RATE_LIMITS ? (name as RateLimitKey) : undefined;
};
