/**
 * An audit entry in business terms: "UID transfer 1 USDT → UID 10000005", "Withdrawal 100 USDT to
 * TQn9…cbLSE (TRX)", "Policy changed". The platform's method and path and the raw parameters stay
 * in the entry (and under its Details) for support; the sentence is what a person reads.
 */
import type { MovementView } from '../../../../shared/contract/activity';
import type { ControlKind } from '../../../../shared/contract/policies';
import { transferAccountWords as account } from '../../../../shared/contract/transfers';
import { formatAmount, formatMoney, isDecimalString } from '../../lib/format';
import { KIND_WORDS } from './words';

type Params = Record<string, unknown>;

const parse = (params: string): Params => {
  try {
    const value: unknown = JSON.parse(params);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Params) : {};
  } catch {
    return {};
  }
};

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** "100 USDT" from a body's amount and currency (as it was sent: a decimal string). */
const money = (body: Params, amountKey = 'amount', currencyKey = 'currency'): string => {
  const amount = text(body[amountKey]);
  const currency = text(body[currencyKey]);
  return isDecimalString(amount) ? formatMoney(amount, currency) : `${amount} ${currency}`.trim();
};

/** A number as it was sent, written by the formatter (a text that is not one, as it came). */
const number = (value: unknown): string => (isDecimalString(text(value)) ? formatAmount(text(value)) : text(value));

/** An address as the tables show one: its ends, the middle elided (the Details hold it whole). */
const short = (address: string): string =>
  address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-5)}`;

/** Each platform write ("METHOD /path", ids in the path as ([^/]+)) and its words, from the path's ids and the body. */
const PLATFORM_WORDS: readonly (readonly [RegExp, (body: Params, ids: readonly string[]) => string])[] = [
  [/^POST \/withdrawals$/, (b) => `Withdrawal ${money(b)} to ${short(text(b.address))} (${text(b.chain)})`],
  [/^POST \/withdrawals\/push$/, (b) => `UID transfer ${money(b)} → UID ${text(b.receive_uid)}`],
  [/^DELETE \/withdrawals\/([^/]+)$/, (_b, [id]) => `Cancel withdrawal ${id}`],
  [
    /^POST \/wallet\/sub_account_transfers$/,
    (b) =>
      text(b.direction) === 'from'
        ? `Transfer ${money(b)} from sub-account UID ${text(b.sub_account)} to main`
        : `Transfer ${money(b)} from main to sub-account UID ${text(b.sub_account)}`,
  ],
  [
    /^POST \/wallet\/sub_account_to_sub_account$/,
    (b) => `Transfer ${money(b)} from sub-account UID ${text(b.sub_account_from)} to UID ${text(b.sub_account_to)}`,
  ],
  [/^POST \/wallet\/transfers$/, (b) => `Transfer ${money(b)} from ${account(b.from)} to ${account(b.to)}`],
  [/^POST \/wallet\/small_balance$/, () => 'Convert small balances to GT'],
  [
    /^POST \/spot\/orders$/,
    (b) =>
      `Order: ${text(b.side) === 'sell' ? 'sell' : 'buy'} ${text(b.currency_pair).replace('_', ' / ')}, amount ${number(b.amount)}${
        b.price ? `, price ${number(b.price)}` : ', at market'
      }`,
  ],
  [/^PATCH \/spot\/orders\/([^/]+)$/, (_b, [id]) => `Amend order ${id}`],
  [/^DELETE \/spot\/orders\/([^/]+)$/, (_b, [id]) => `Cancel order ${id}`],
  [/^DELETE \/spot\/orders$/, () => 'Cancel all open orders'],
  [/^POST \/spot\/price_orders$/, () => 'Place a stop / take-profit order'],
  [/^DELETE \/spot\/price_orders\/([^/]+)$/, (_b, [id]) => `Cancel stop / take-profit ${id}`],
  [/^POST \/sub_accounts$/, (b) => `Create sub-account ${text(b.login_name)}`],
  [/^POST \/sub_accounts\/(\d+)\/lock$/, (_b, [uid]) => `Freeze sub-account UID ${uid}`],
  [/^POST \/sub_accounts\/(\d+)\/unlock$/, (_b, [uid]) => `Unfreeze sub-account UID ${uid}`],
  [/^POST \/sub_accounts\/(\d+)\/keys$/, (_b, [uid]) => `Create an API key for sub-account UID ${uid}`],
  [/^PUT \/sub_accounts\/(\d+)\/keys\/[^/]+$/, (_b, [uid]) => `Change an API key of sub-account UID ${uid}`],
  [/^DELETE \/sub_accounts\/(\d+)\/keys\/[^/]+$/, (_b, [uid]) => `Delete an API key of sub-account UID ${uid}`],
];

/** Each control change as applied (its rows say what changed: "Name: — → desk_mm"). */
const CONTROL_WORDS: Record<ControlKind, string> = {
  'operators.create': 'Operator created',
  'operators.changeRole': 'Operator’s role changed',
  'operators.remove': 'Operator removed',
  'operators.resetPassphrase': 'Operator’s passphrase reset',
  'policies.set': 'Policy changed',
  'profiles.add': 'Profile added',
  'profiles.setKey': 'Profile’s API key stored',
  'profiles.removeKey': 'Profile’s API key removed',
  'profiles.remove': 'Profile removed',
  'subAccounts.create': 'Sub-account created',
  'subAccounts.setFrozen': 'Sub-account frozen or unfrozen',
  'balances.convertSmallBalances': 'Small balances converted',
  'keys.create': 'Sub-account API key created',
  'keys.update': 'Sub-account API key changed',
  'keys.delete': 'Sub-account API key deleted',
  'team.join': 'Desk joined the team',
  'team.leave': 'Desk left the team',
  'team.importJournal': 'Desk’s journal imported into the team',
};

/**
 * "Sub-account created, approved by Bea". What it changed stays under the entry's Details: a policy
 * changes many rows at once, too long for a table cell (the platform request that follows names
 * the sub-account, the key, the operator).
 */
const controlWords = (kind: ControlKind, p: Params): string =>
  `${CONTROL_WORDS[kind]}${text(p.approvedBy) ? `, approved by ${text(p.approvedBy)}` : ''}`;

/** A movement the journal took (the platform request that follows says its amount and destination). */
const movementWords = (kind: MovementView['kind'], p: Params): string => {
  const origin = text(p.origin);
  return `${KIND_WORDS[kind]} recorded${origin && origin !== 'screen' ? ` (${origin})` : ''}`;
};

/** The app's own actions (not platform requests). */
const APP_WORDS: Record<string, (p: Params) => string> = {
  ...Object.fromEntries(
    (Object.keys(CONTROL_WORDS) as ControlKind[]).map((kind) => [kind, (p: Params) => controlWords(kind, p)]),
  ),
  ...Object.fromEntries(
    (Object.keys(KIND_WORDS) as MovementView['kind'][]).map((kind) => [
      `movements.${kind}`,
      (p: Params) => movementWords(kind, p),
    ]),
  ),
  'approvals.retract': (p) => `Retracted by its maker: ${text(p.summary) || text(p.id)}`,
  'operators.signIn': () => 'Signed in',
  'operators.signOut': () => 'Signed out',
  'operators.setup': () => 'First administrator created',
  'operators.changePassphrase': () => 'Own passphrase changed',
  'operators.liftLockout': () => 'Sign-in wait lifted for an operator',
  'app.lock': () => 'Desk locked',
  'app.saveFile': (p) => `File saved: ${text(p.name)}`,
  'app.setNotificationSettings': () => 'Notification settings changed',
  'activity.exportHistoryCsv': (p) => `History exported: ${text(p.file)}`,
  'profiles.update': () => 'Profile changed',
  'audit.checkFailed': () => 'The audit log failed its check',
  'audit.failureAcknowledged': () => 'A failed audit check was acknowledged',
  'audit.chainRekeyed': () => 'The audit log’s chain was keyed again',
  'approvals.request': (p) => `Approval requested: ${text(p.summary) || 'a money movement'}`,
  'approvals.approve': (p) => `Approved: ${text(p.summary) || text(p.id)}`,
  'approvals.reject': (p) => `Rejected: ${text(p.summary) || text(p.id)}`,
  'approvals.cancel': (p) => `Retracted: ${text(p.summary) || text(p.id)}`,
  'approvals.expired': (p) => `Expired without a decision: ${text(p.summary) || text(p.id)}`,
  'policies.refused': (p) => `Refused by the policy: ${text(p.summary) || text(p.reason)}`,
  'trade.updateSettings': () => 'Order ticket settings changed',
  'activity.resolveMovement': (p) => `Settled by hand as ${text(p.outcome) === 'done' ? 'executed' : 'not executed'}`,
  'profiles.switch': (p) => `Switched to the profile ${text(p.name) || text(p.id)}`,
  'bulk.create': (p) => `Batch prepared: ${text(p.name)}`,
  'bulk.start': () => 'Batch started',
  'bulk.pause': () => 'Batch paused',
  'bulk.resume': () => 'Batch resumed',
  'bulk.cancel': () => 'Batch cancelled',
  'bulk.retryFailed': () => 'Failed rows of a batch retried',
  'bulk.exportReport': () => 'Batch report exported',
  'bulk.approved': () => 'Batch approved',
  'bulk.rotateKeys': () => 'API keys rotated',
  keyCreate: () => 'API key created',
  keyUpdate: () => 'API key changed',
  keyDelete: () => 'API key deleted',
};

/** The sentence for one audit entry; the action itself when no words are known for it. */
export const auditWords = (entry: { readonly action: string; readonly params: string }): string => {
  const params = parse(entry.params);
  if (/^(GET|POST|PUT|PATCH|DELETE) \//.test(entry.action)) {
    const body = typeof params.body === 'object' && params.body !== null ? (params.body as Params) : params;
    for (const [pattern, words] of PLATFORM_WORDS) {
      const match = pattern.exec(entry.action);
      if (match) return words(body, match.slice(1));
    }
    return entry.action;
  }
  return APP_WORDS[entry.action]?.(params) ?? entry.action;
};
