/**
 * Transfer records for the history and the outcome of a journaled transfer, in the contract's
 * words. Pure functions: the platform's records and the journal's movements in, rows out.
 */
import type { TransferOutcome, TransferRecord } from '../../../shared/contract/transfers';
import type { SubAccountTransferRecord } from '../../../shared/platform/api/wallet';
import type { Movement } from '../movements/types';

export const TRANSFER_KINDS = ['transfer', 'subAccountTransfer', 'subToSubTransfer'] as const;

const ACCOUNT_WORDS: Record<string, string> = {
  spot: 'spot',
  margin: 'isolated margin',
  futures: 'perpetual futures',
  delivery: 'delivery futures',
  options: 'options',
};
const words = (account: unknown): string =>
  typeof account === 'string' ? (ACCOUNT_WORDS[account] ?? account) : 'spot';

export type SubName = (uid: string) => string;

/** A journaled movement → where the transfer stands for the screen. */
export const outcomeOf = (movement: Movement): TransferOutcome => {
  const base = {
    id: movement.id,
    ...(movement.platformId ? { txId: movement.platformId } : {}),
    ...(movement.requestId ? { requestId: movement.requestId } : {}),
  };
  if (movement.state === 'done') return { ...base, state: 'done' };
  if (movement.state === 'failed') {
    return {
      ...base,
      state: 'failed',
      message:
        movement.label === 'NEVER_EXECUTED'
          ? 'The platform confirmed it never received this transfer; nothing moved. You can send it again.'
          : (movement.message ?? 'The platform refused the transfer; nothing moved.'),
      ...(movement.label ? { label: movement.label } : {}),
    };
  }
  return {
    ...base,
    state: 'checking',
    message:
      'The platform’s answer was lost; the app is asking it whether the transfer went through. Do not send it again.',
  };
};

const p = (movement: Movement, field: string): unknown => movement.params[field];

/** Sub-account user ids a journaled transfer touches (for the sub-account filter). */
export const subAccountsOf = (movement: Movement): string[] =>
  [p(movement, 'sub_account'), p(movement, 'sub_account_from'), p(movement, 'sub_account_to')]
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String);

const JOURNAL_STATE: Record<Movement['state'], { state: TransferRecord['state']; text: string }> = {
  prepared: { state: 'checking', text: 'Unknown — checking' },
  sent: { state: 'checking', text: 'Unknown — checking' },
  unknown: { state: 'checking', text: 'Unknown — checking' },
  done: { state: 'done', text: 'Done' },
  failed: { state: 'failed', text: 'Failed' },
};

/** A journaled transfer (any kind) → a history row. */
export const journalRecord = (movement: Movement, subName: SubName): TransferRecord | undefined => {
  const state = JOURNAL_STATE[movement.state];
  const stateText = movement.state === 'failed' && movement.label ? `Failed · ${movement.label}` : state.text;
  const common = {
    id: `j-${movement.id}`,
    time: movement.createdAt,
    currency: movement.currency,
    amount: movement.amount,
    state: state.state,
    stateText,
    ...(movement.clientId ? { clientOrderId: movement.clientId } : {}),
    source: 'journal' as const,
  };
  switch (movement.kind) {
    case 'transfer': {
      const pair = p(movement, 'currency_pair');
      const settle = p(movement, 'settle');
      const extra = [
        typeof pair === 'string' ? pair : '',
        typeof settle === 'string' ? `settle ${settle.toUpperCase()}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const suffix = extra ? ` (${extra})` : '';
      return {
        ...common,
        kind: 'own',
        from: `Main · ${words(p(movement, 'from'))}${suffix}`,
        to: `Main · ${words(p(movement, 'to'))}${suffix}`,
      };
    }
    case 'subAccountTransfer': {
      const sub = `${subName(String(p(movement, 'sub_account')))} · ${words(p(movement, 'sub_account_type'))}`;
      const into = p(movement, 'direction') === 'to';
      return { ...common, kind: 'mainSub', from: into ? 'Main · spot' : sub, to: into ? sub : 'Main · spot' };
    }
    case 'subToSubTransfer':
      return {
        ...common,
        kind: 'subSub',
        from: `${subName(String(p(movement, 'sub_account_from')))} · ${words(p(movement, 'sub_account_from_type'))}`,
        to: `${subName(String(p(movement, 'sub_account_to')))} · ${words(p(movement, 'sub_account_to_type'))}`,
      };
    default:
      return undefined;
  }
};

/** A platform sub-account transfer record → a history row. */
export const platformRecord = (record: SubAccountTransferRecord, index: number, subName: SubName): TransferRecord => {
  const sub = `${subName(record.sub_account)} · ${words(record.sub_account_type ?? 'spot')}`;
  const into = record.direction === 'to';
  const success = record.status === undefined || record.status === 'success';
  return {
    id: `p-${record.client_order_id || `${record.timest ?? 0}-${record.sub_account}-${record.direction}`}-${index}`,
    time: Math.round((record.timest ?? 0) * 1000),
    kind: 'mainSub',
    from: into ? 'Main · spot' : sub,
    to: into ? sub : 'Main · spot',
    currency: record.currency,
    amount: record.amount,
    state: success ? 'done' : 'pending',
    stateText: success ? 'Done' : `Platform status: ${record.status}`,
    ...(record.client_order_id ? { clientOrderId: record.client_order_id } : {}),
    source: 'platform',
  };
};

/**
 * Platform records plus the journal's transfers the platform does not list (own-account transfers,
 * failed or still-checking ones, and anything outside its records), newest first. A journaled
 * transfer whose client id appears in the platform's records is shown once, as the platform's row.
 */
export const mergeHistory = (
  platform: readonly TransferRecord[],
  journal: readonly TransferRecord[],
): TransferRecord[] => {
  const onPlatform = new Set(platform.flatMap((r) => (r.clientOrderId ? [r.clientOrderId] : [])));
  const extra = journal.filter((r) => r.clientOrderId === undefined || !onPlatform.has(r.clientOrderId));
  return [...platform, ...extra].sort((a, b) => b.time - a.time);
};
