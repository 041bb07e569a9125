/**
 * What the trusted confirmation shows (docs/security.md, "The trusted confirmation"): built in main
 * from exactly what main is about to journal, in the words and order of the review the person just
 * read on screen — the address grouped as the review groups it with its saved label, a sub-account
 * by its name and UID, what the recipient gets and what is taken from the balance, "UID transfer"
 * (the product's word, never the API's "push"). A person compares the two line by line.
 */
import Decimal from 'decimal.js';
import type { ControlChangeRow } from '../../shared/contract/policies';
import { formatMoney } from '../../shared/format/money';
import type { ConfirmRow } from './confirm';

/** Characters per group of an address, as the review sheet shows it (renderer/src/ui/LongId.tsx). */
export const ID_GROUP = 4;

export interface Who {
  readonly name: string;
  readonly role: string;
}

/** The rows every confirmation ends with: where and as whom. */
export const contextRows = (profile: { readonly name: string; readonly kind: string } | undefined, who: Who) => [
  { label: 'Profile', value: profile ? `${profile.name} (${profile.kind})` : 'none' },
  { label: 'Operator', value: `${who.name} (${who.role})` },
];

/** A withdrawal as its review sheet shows it. */
export interface WithdrawalFacts {
  readonly kind: 'withdrawal';
  readonly currency: string;
  readonly amount: string;
  readonly chain: string;
  /** The network's name, when the platform gives one other than its code ("Tron"). */
  readonly chainName?: string | undefined;
  readonly address: string;
  readonly memo?: string | undefined;
  /** The saved address's name, when this destination (chain, address, memo) is a saved entry. */
  readonly savedAs?: string | undefined;
  /** The policy allowlist's label of this destination. */
  readonly allowlistLabel?: string | undefined;
  /** Fee, what the recipient gets and what leaves the spot balance (shared/contract/funding.ts quote). */
  readonly quote?: { readonly fee: string; readonly net: string; readonly debit: string } | undefined;
}

/** A UID transfer to another main account. */
export interface PushFacts {
  readonly kind: 'push';
  readonly currency: string;
  readonly amount: string;
  readonly receiveUid: number;
}

/** A transfer between the desk's own accounts, its ends in the review's words ("desk_ops (UID 10000003) · Spot"). */
export interface TransferFacts {
  readonly kind: 'transfer';
  readonly currency: string;
  readonly amount: string;
  readonly from: string;
  readonly to: string;
}

export type MovementFacts = WithdrawalFacts | PushFacts | TransferFacts;

/** "Withdraw 100 USDT", "UID transfer of 25 USDT", "Transfer 1,012.5 USDT". */
export const movementTitle = (f: MovementFacts): string => {
  const money = formatMoney(f.amount, f.currency);
  return f.kind === 'withdrawal'
    ? `Withdraw ${money}`
    : f.kind === 'push'
      ? `UID transfer of ${money}`
      : `Transfer ${money}`;
};

/** The movement's own rows, in the order its review shows them. */
export const movementRows = (f: MovementFacts, usdt?: string): ConfirmRow[] => {
  const money = formatMoney(f.amount, f.currency);
  const value =
    usdt !== undefined && f.currency.toUpperCase() !== 'USDT'
      ? [{ label: 'Value', value: formatMoney(usdt, 'USDT', { estimate: true }) }]
      : [];
  switch (f.kind) {
    case 'withdrawal': {
      const label = f.savedAs ?? f.allowlistLabel;
      return [
        { label: 'Amount', value: money },
        ...value,
        { label: 'Network', value: f.chainName && f.chainName !== f.chain ? `${f.chain} (${f.chainName})` : f.chain },
        { label: 'To address', value: f.address, group: ID_GROUP },
        ...(label ? [{ label: 'Saved as', value: `“${label}”` }] : []),
        ...(f.memo ? [{ label: 'Memo / tag', value: f.memo }] : []),
        ...(f.quote
          ? [
              { label: 'Fee', value: formatMoney(f.quote.fee, f.currency) },
              { label: 'Recipient gets', value: formatMoney(f.quote.net, f.currency) },
              { label: 'Taken from spot balance', value: formatMoney(f.quote.debit, f.currency) },
            ]
          : []),
      ];
    }
    case 'push':
      return [
        { label: 'To user id', value: String(f.receiveUid) },
        { label: 'Amount', value: money },
        ...value,
        // A UID transfer carries no fee: the receiver gets what leaves the spot balance.
        { label: 'Recipient gets', value: money },
        { label: 'Taken from spot balance', value: money },
      ];
    case 'transfer':
      return [
        { label: 'Amount', value: money },
        { label: 'From', value: f.from },
        { label: 'To', value: f.to },
        { label: 'Recipient gets', value: money },
        { label: 'Taken from balance', value: `${money} (${f.from})` },
      ];
  }
};

/** The button's word for a movement confirmed on its own. */
export const movementVerb = (f: MovementFacts): string =>
  f.kind === 'withdrawal' ? 'Withdraw' : f.kind === 'push' ? 'Send UID transfer' : 'Transfer';

/** A control change line by line: "before → after". */
export const changeRows = (changes: readonly ControlChangeRow[]): ConfirmRow[] =>
  changes.map((c) => ({ label: c.label, value: c.before === c.after ? c.after : `${c.before} → ${c.after}` }));

/** One row of a batch as its confirmation lists it. */
export interface BatchLine {
  readonly row: number;
  /** "Withdrawal", "UID transfer", "Transfer". */
  readonly what: string;
  /** Where it goes: "TXYZ… memo 42 (TRX)", "UID 2000001", "desk_ops (UID 10000003) · Spot". */
  readonly destination: string;
  readonly currency: string;
  readonly amount: string;
}

/** Up to this many rows a batch's confirmation lists row by row; above, grouped by destination. */
export const BATCH_ROWS_LISTED = 20;

/**
 * Every destination of a batch with its amount and currency: row by row when short, grouped by
 * destination (rows, total per currency) when long. Never fewer lines than destinations.
 */
export const batchLines = (lines: readonly BatchLine[]): ConfirmRow[] => {
  if (lines.length <= BATCH_ROWS_LISTED) {
    return lines.map((l) => ({
      label: `Row ${l.row} · ${l.what}`,
      value: `${formatMoney(l.amount, l.currency)} to ${l.destination}`,
    }));
  }
  const groups = new Map<string, { what: string; rows: number[]; totals: Map<string, string[]> }>();
  for (const l of lines) {
    const key = `${l.what}\u0000${l.destination}`;
    const group = groups.get(key) ?? { what: l.what, rows: [] as number[], totals: new Map<string, string[]>() };
    group.rows.push(l.row);
    group.totals.set(l.currency, [...(group.totals.get(l.currency) ?? []), l.amount]);
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, g]) => ({
    label: `${g.what} · ${g.rows.length} row${g.rows.length === 1 ? '' : 's'}`,
    value: `${[...g.totals.entries()].map(([currency, amounts]) => formatMoney(sum(amounts), currency)).join(' + ')} to ${key.split('\u0000')[1]}`,
  }));
};

const sum = (amounts: readonly string[]): Decimal => amounts.reduce((total, a) => total.plus(a), new Decimal(0));
