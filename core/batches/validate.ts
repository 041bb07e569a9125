/**
 * Checking a whole batch before anything is sent, from facts main read from the platform: every
 * row (currency, chain, saved address, precision, minimums, sub-accounts) and the batch as a whole
 * (the sum leaving each account, withdrawal fees included, against what is available there;
 * duplicate rows; today's withdrawal limit). Pure: the service gathers the facts, this decides.
 */
import Decimal from 'decimal.js';
import type { AccountRef, BatchPreview, BatchRowInput, PreviewRow, PreviewTotal } from '../../shared/contract/bulk';
import {
  type CurrencyChainInfo,
  destinationKey,
  quote,
  type SavedAddress,
  type WithdrawRules,
} from '../../shared/contract/funding';
import { TRANSFER_MAX_DECIMALS } from '../../shared/contract/transfers';
import { formatMoney } from '../../shared/format/money';
import { accountText, type ParsedRow, rowToRecord } from './csv';

export interface SubAccountFact {
  readonly loginName: string;
  /** Frozen (locked) by the main account. */
  readonly frozen: boolean;
}

export interface BatchFacts {
  /** Currencies the platform lists; undefined when the list could not be read. */
  readonly currencies?: ReadonlySet<string>;
  /** The main account's user id (a push to it is refused). */
  readonly mainUserId?: number;
  readonly subAccounts: ReadonlyMap<number, SubAccountFact>;
  /** Per withdrawal currency. */
  readonly chains: ReadonlyMap<string, readonly CurrencyChainInfo[]>;
  readonly rules: ReadonlyMap<string, WithdrawRules>;
  readonly saved: ReadonlyMap<string, readonly SavedAddress[]>;
  /** Available per source key (`sourceKey`); null: the app cannot read that account. */
  readonly available: ReadonlyMap<string, string | null>;
}

/** A policy check of the whole batch (docs/bulk.md, "Policies and approvals"). */
export interface BatchPolicyVerdict {
  /** Row number → problems (a limit the row breaks). */
  readonly rowErrors: ReadonlyMap<number, readonly string[]>;
  /** Row number → warnings (why the row needs an approver). */
  readonly rowWarnings?: ReadonlyMap<number, readonly string[]>;
  readonly approval?: BatchPreview['approval'];
}

const MAIN_SPOT: AccountRef = { owner: 'main', account: 'spot' };

/** Where a row's funds leave from. */
export const sourceOf = (input: BatchRowInput): AccountRef => (input.type === 'transfer' ? input.from : MAIN_SPOT);

/** One key per account and currency (margin per market, contracts per settle currency). */
export const sourceKey = (ref: AccountRef, currency: string): string =>
  JSON.stringify([ref.owner, ref.account, ref.pair ?? '', ref.settle ?? '', currency]);

export const destinationText = (input: BatchRowInput): string => {
  switch (input.type) {
    case 'transfer':
      return accountText(input.to);
    case 'push':
      return `UID ${input.receiveUid}`;
    case 'withdrawal':
      return `${input.chain} ${input.address}${input.memo ? ` (memo ${input.memo})` : ''}`;
  }
};

export const kindText = (input: BatchRowInput): string => {
  if (input.type === 'push') return 'UID transfer';
  if (input.type === 'withdrawal') return 'Withdrawal';
  const { from, to } = input;
  if (from.owner === 'main' && to.owner === 'main') return 'Transfer (own accounts)';
  if (from.owner !== 'main' && to.owner !== 'main') return 'Transfer (sub → sub)';
  return 'Transfer (main ↔ sub)';
};

const decimals = (amount: string): number => amount.split('.')[1]?.length ?? 0;

const listRows = (rows: readonly number[]): string =>
  rows.length <= 5 ? rows.join(', ') : `${rows.slice(0, 5).join(', ')} and ${rows.length - 5} more`;

/** The checks of one row that need no other row. */
const rowProblems = (
  input: BatchRowInput,
  facts: BatchFacts,
  errors: string[],
  warnings: string[],
): string | undefined => {
  const { currency, amount } = input;
  if (facts.currencies && !facts.currencies.has(currency))
    errors.push(`${currency} is not a currency of the platform.`);
  const sub = (uid: number, side: string): void => {
    const fact = facts.subAccounts.get(uid);
    if (fact === undefined) errors.push(`${side}: ${uid} is not one of this account’s sub-accounts.`);
    else if (fact.frozen) errors.push(`${side}: sub-account ${fact.loginName} (${uid}) is frozen; unfreeze it first.`);
  };
  if (input.type === 'transfer') {
    const { from, to } = input;
    if (decimals(amount) > TRANSFER_MAX_DECIMALS)
      errors.push(`Transfers take at most ${TRANSFER_MAX_DECIMALS} decimals.`);
    if (JSON.stringify(from) === JSON.stringify(to)) errors.push('From and to are the same account.');
    if (from.owner !== 'main') sub(from.owner, 'From');
    if (to.owner !== 'main') sub(to.owner, 'To');
    if (from.owner !== 'main' && to.owner !== 'main') {
      if (from.account === 'options' || to.account === 'options') {
        errors.push('Between two sub-accounts only spot, futures and delivery accounts can be used.');
      }
      warnings.push(
        'The platform gives sub → sub transfers no client id: if its answer is lost, a person confirms it in Activity (it is never resent).',
      );
    } else if (from.owner !== 'main' || to.owner !== 'main') {
      const main = from.owner === 'main' ? from : to;
      if (main.account !== 'spot')
        errors.push('Between the main account and a sub-account, the main side is its spot account.');
    }
    return undefined;
  }
  if (input.type === 'push') {
    if (decimals(amount) > TRANSFER_MAX_DECIMALS)
      errors.push(`UID transfers take at most ${TRANSFER_MAX_DECIMALS} decimals.`);
    if (input.receiveUid === facts.mainUserId)
      errors.push('This is your own user id: a UID transfer goes to another main account.');
    if (facts.subAccounts.has(input.receiveUid)) {
      errors.push(`${input.receiveUid} is one of your sub-accounts: use a transfer (to = sub:${input.receiveUid}).`);
    }
    return undefined;
  }
  // withdrawal
  const chains = facts.chains.get(currency);
  const chain = chains?.find((c) => c.chain === input.chain);
  if (chains !== undefined && chain === undefined) {
    errors.push(
      `${currency} cannot be withdrawn on ${input.chain}${chains.length ? ` (networks: ${chains.map((c) => c.chain).join(', ')})` : ''}.`,
    );
  }
  if (chain && (chain.disabled || chain.withdrawDisabled))
    errors.push(`Withdrawals of ${currency} on ${input.chain} are suspended.`);
  if (chain?.usesMemo && !input.memo)
    errors.push(`${input.chain} needs a memo/tag: without it the funds cannot be credited.`);
  if (chain?.decimals !== undefined && decimals(amount) > chain.decimals) {
    errors.push(
      chain.decimals === 0
        ? `${input.chain} accepts whole numbers only.`
        : `${input.chain} accepts at most ${chain.decimals} decimals.`,
    );
  }
  const saved = facts.saved.get(currency) ?? [];
  const key = destinationKey(input.chain, input.address, input.memo);
  const entry = saved.find((a) => destinationKey(a.chain, a.address, a.tag) === key);
  const sameAddress = saved.find((a) => a.chain === input.chain && a.address === input.address);
  if (entry === undefined) {
    errors.push(
      sameAddress
        ? 'This address is saved with another memo: a batch withdraws only to saved destinations, memo included.'
        : `This address is not among the saved ${currency} addresses on ${input.chain}: a batch withdraws only to saved addresses.`,
    );
  } else if (!entry.verified) {
    errors.push('This saved address is not verified yet: the platform refuses withdrawals to it.');
  } else if (entry.previousWithdrawals === 0) {
    warnings.push('Nothing was sent to this address before: check it.');
  }
  const rules = facts.rules.get(currency);
  if (rules && chain) {
    const q = quote(rules, input.chain, amount, chain.decimals);
    if (rules.minAmount && new Decimal(amount).lt(rules.minAmount)) {
      errors.push(`The minimum withdrawal is ${formatMoney(rules.minAmount, currency)}.`);
    }
    if (
      rules.maxPerWithdrawal &&
      new Decimal(rules.maxPerWithdrawal).gt(0) &&
      new Decimal(amount).gt(rules.maxPerWithdrawal)
    ) {
      errors.push(`At most ${formatMoney(rules.maxPerWithdrawal, currency)} per withdrawal.`);
    }
    if (new Decimal(q.net).lte(0)) errors.push(`The amount does not cover the fee of ${formatMoney(q.fee, currency)}.`);
    return q.fee;
  }
  return undefined;
};

/** Checks every row and the batch as a whole; the preview the screen shows. */
export const validateBatch = (
  parsed: readonly ParsedRow[],
  facts: BatchFacts,
  policy?: (rows: readonly { row: number; input: BatchRowInput; fee?: string }[]) => BatchPolicyVerdict,
): BatchPreview => {
  const rows: PreviewRow[] = [];
  const seen = new Map<string, number>();
  const sums = new Map<string, { ref: AccountRef; currency: string; total: Decimal; rows: number[] }>();
  const dayTotals = new Map<string, { total: Decimal; rows: number[] }>();

  for (const p of parsed) {
    const errors = [...p.errors];
    const warnings = [...p.warnings];
    const input = p.input;
    let fee: string | undefined;
    if (input) {
      fee = rowProblems(input, facts, errors, warnings);
      const canonical = JSON.stringify(rowToRecord(input));
      const first = seen.get(canonical);
      if (first !== undefined) {
        errors.push(`Same as row ${first}: give each payment its own reference if both are meant.`);
      } else seen.set(canonical, p.row);
      const source = sourceOf(input);
      const key = sourceKey(source, input.currency);
      const sum = sums.get(key) ?? { ref: source, currency: input.currency, total: new Decimal(0), rows: [] };
      sum.total = sum.total.plus(input.amount).plus(fee ?? 0);
      sum.rows.push(p.row);
      sums.set(key, sum);
      if (input.type === 'withdrawal') {
        const day = dayTotals.get(input.currency) ?? { total: new Decimal(0), rows: [] };
        day.total = day.total.plus(input.amount);
        day.rows.push(p.row);
        dayTotals.set(input.currency, day);
      }
    }
    rows.push({
      row: p.row,
      ...(input ? { input } : {}),
      raw: p.raw,
      kind: input ? kindText(input) : (p.raw.type ?? ''),
      currency: input?.currency ?? p.raw.currency ?? '',
      amount: input?.amount ?? p.raw.amount ?? '',
      ...(fee !== undefined && fee !== '0' ? { fee } : {}),
      from: input ? accountText(sourceOf(input)) : (p.raw.from ?? ''),
      to: input ? destinationText(input) : (p.raw.to ?? ''),
      errors,
      warnings,
    });
  }

  const byRow = new Map(rows.map((r) => [r.row, r]));
  const totals: PreviewTotal[] = [];
  for (const [key, sum] of sums) {
    const available = facts.available.has(key) ? (facts.available.get(key) ?? null) : null;
    totals.push({
      source: accountText(sum.ref),
      currency: sum.currency,
      total: sum.total.toFixed(),
      available,
      rows: sum.rows.length,
    });
    if (available !== null && sum.total.gt(available)) {
      const message =
        sum.rows.length === 1
          ? `${accountText(sum.ref)} has ${formatMoney(available, sum.currency)} available; this row needs ${formatMoney(sum.total, sum.currency)}.`
          : `Rows ${listRows(sum.rows)} together take ${formatMoney(sum.total, sum.currency)} (fees included) from ${accountText(sum.ref)}; ${formatMoney(available, sum.currency)} is available.`;
      for (const n of sum.rows) byRow.get(n)?.errors.push(message);
    }
  }
  for (const [currency, day] of dayTotals) {
    const remain = facts.rules.get(currency)?.dayLimitRemaining;
    if (remain !== undefined && day.total.gt(remain)) {
      const message = `The withdrawals of ${currency} in this batch (${formatMoney(day.total, currency)}) exceed what remains of today’s limit (${formatMoney(remain, currency)}).`;
      for (const n of day.rows) byRow.get(n)?.errors.push(message);
    }
  }

  let approval: BatchPreview['approval'];
  if (policy) {
    const verdict = policy(
      rows.flatMap((r) => (r.input ? [{ row: r.row, input: r.input, ...(r.fee ? { fee: r.fee } : {}) }] : [])),
    );
    for (const [n, problems] of verdict.rowErrors) byRow.get(n)?.errors.push(...problems);
    for (const [n, notes] of verdict.rowWarnings ?? []) byRow.get(n)?.warnings.push(...notes);
    approval = verdict.approval;
  }

  return {
    rows,
    fileProblems: [],
    totals,
    errorCount: rows.reduce((n, r) => n + r.errors.length, 0),
    warningCount: rows.reduce((n, r) => n + r.warnings.length, 0),
    ...(approval ? { approval } : {}),
  };
};
