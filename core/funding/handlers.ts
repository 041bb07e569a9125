import type { DeskHandlers } from '../../shared/contract';
import {
  amountProblem,
  destinationKey,
  quote,
  type ReviewPolicy,
  type SavedAddress,
  type WithdrawDetails,
  type WithdrawResult,
  type WithdrawRules,
  withdrawalFromMovement,
  withdrawalJournalView,
} from '../../shared/contract/funding';
import { savedAddressRefusal } from '../../shared/platform/savedAddresses';
import type { MovementCommands, WithdrawalPrecheck } from '../commands/movements';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import type { Movement } from '../movements/types';
import { SCREEN } from '../policies/authorize';
import { RULES_FRESH_MS, rulesCacheOf } from '../rules/cache';
import { toChain, toDeposit, toDepositAddress, toPush, toRules, toSavedAddress, toWithdrawal } from './records';
import { readAllWindows } from './windows';

const DAY = 86_400;
/** Withdrawal statuses that mean nothing was sent: they do not count as "used this address". */
const NOT_SENT = new Set(['CANCEL', 'CANCELPEND', 'INVALID', 'REJECT']);

const invalid = (message: string, field: string): DeskFailure =>
  new DeskFailure({ code: 'INVALID_INPUT', message, fields: { [field]: message } });

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The funding reads a withdrawal's precheck and the `funding` handlers share: withdrawal rules and
 * chain info, recent withdrawals and the saved addresses, through the rules cache (rules/cache.ts).
 */
const fundingReads = (ctx: ServiceContext) => {
  const api = () => ctx.platform();
  /**
   * Withdrawal rules and chain info: what the screen read a moment ago serves the precheck
   * (rules/cache.ts). Keys: `withdrawStatus:<currency or *>`, `chains:<currency>`.
   */
  const rules = rulesCacheOf(ctx);
  const readRules = (currency: string | undefined, maxAgeMs: number) =>
    rules.get(`withdrawStatus:${currency ?? '*'}`, maxAgeMs, async () =>
      (await api().wallet.withdrawStatus(currency)).map(toRules),
    );
  const readChains = (currency: string, maxAgeMs: number) =>
    rules.get(`chains:${currency}`, maxAgeMs, async () => (await api().wallet.currencyChains(currency)).map(toChain));

  const readWithdrawals = (from: number, to: number, currency?: string) =>
    readAllWindows(from, to, {
      pageSize: 500,
      read: (w, offset, limit) =>
        api().wallet.withdrawals({ from: w.from, to: w.to, offset, limit, ...(currency ? { currency } : {}) }),
    });

  /**
   * The saved addresses of a currency (on one chain) with how often the app has seen each
   * destination used. Kept in the rules cache: the withdrawal precheck uses what the form read a
   * moment ago to refuse an address the platform will not accept (shared/platform/savedAddresses.ts).
   */
  const savedAddressesKey = (currency: string, chain: string | undefined) =>
    `savedAddresses:${currency}:${chain ?? '*'}`;
  const readSavedAddresses = async (currency: string, chain: string | undefined): Promise<SavedAddress[]> => {
    // An hour past now tolerates a platform clock ahead of ours.
    const to = nowSeconds() + 3600;
    const [saved, recent] = await Promise.all([
      api().wallet.savedAddresses({ currency, ...(chain ? { chain } : {}), limit: 100 }),
      readWithdrawals(to - 30 * DAY - 3600, to, currency),
    ]);
    // "Used before" = sent to this destination (chain, address, memo) in the last 30 days, or by
    // this app (journal). A memo never sent to is a new destination even at a known address.
    const seenIds = new Set(recent.map((r) => r.id));
    const uses = new Map<string, number>();
    const count = (key: string) => uses.set(key, (uses.get(key) ?? 0) + 1);
    for (const r of recent) {
      if (r.address && !NOT_SENT.has(r.status)) count(destinationKey(r.chain ?? '', r.address, r.memo));
    }
    // Older ones the app sent itself (outside the platform's 30-day window), unless cancelled.
    for (const m of ctx.movements.list({ kind: 'withdrawal', state: 'done' })) {
      const { chain: sentChain, address, memo } = m.params;
      if (typeof sentChain !== 'string' || typeof address !== 'string' || m.currency !== currency) continue;
      if (m.platformId && seenIds.has(m.platformId)) continue;
      if (m.platformStatus && NOT_SENT.has(m.platformStatus)) continue;
      count(destinationKey(sentChain, address, typeof memo === 'string' ? memo : undefined));
    }
    return saved
      .filter((a) => !chain || !a.chain || a.chain === chain)
      .map((a) => {
        const entry = toSavedAddress(a, chain ?? '', 0);
        return {
          ...entry,
          previousWithdrawals: uses.get(destinationKey(entry.chain, entry.address, entry.tag)) ?? 0,
        };
      });
  };

  /**
   * The same rules the screen checks, checked again before the journal sends anything: a mistake
   * or a stale screen is stopped here with the reason, nothing sent. The balance is read now; the
   * chain's state and the currency's rules are the platform's answer of at most RULES_FRESH_MS ago
   * (the form read them when the person chose the currency), else read now.
   * Returns the fee the platform will take (for the trusted confirmation), when its rules are known.
   */
  const precheckWithdrawal: WithdrawalPrecheck = async (input: WithdrawDetails) => {
    const everyCurrency = rules.peek<WithdrawRules[]>('withdrawStatus:*', RULES_FRESH_MS);
    const [chains, statuses, spot] = await Promise.all([
      readChains(input.currency, RULES_FRESH_MS),
      everyCurrency?.some((r) => r.currency === input.currency)
        ? everyCurrency
        : readRules(input.currency, RULES_FRESH_MS),
      api().spot.accounts(input.currency),
    ]);
    const chain = chains.find((c) => c.chain === input.chain);
    if (!chain) throw invalid(`${input.currency} cannot be withdrawn on network ${input.chain}.`, 'chain');
    if (chain.disabled || chain.withdrawDisabled) {
      throw invalid(`Withdrawals of ${input.currency} on ${input.chain} are suspended by the platform.`, 'chain');
    }
    if (chain.usesMemo && !input.memo) {
      throw invalid(`${input.chain} needs a memo/tag: without it the funds cannot be credited.`, 'memo');
    }
    // A saved address the platform refuses (not verified, never used): said now, nothing sent.
    // Whatever list was read a moment ago serves (all chains, e.g. a bulk check, or this chain).
    const entries = (
      rules.peek<SavedAddress[]>(savedAddressesKey(input.currency, undefined), RULES_FRESH_MS) ??
      (await rules.get(savedAddressesKey(input.currency, input.chain), RULES_FRESH_MS, () =>
        readSavedAddresses(input.currency, input.chain),
      ))
    ).filter((a) => a.chain === input.chain && a.address === input.address);
    const refusal = entries.length > 0 && entries.every((a) => savedAddressRefusal(a)) ? entries[0] : undefined;
    if (refusal) throw invalid(savedAddressRefusal(refusal) ?? '', 'address');
    // The saved entry of exactly this destination (its memo too): the review shows its name.
    const savedAs =
      entries.find(
        (a) => destinationKey(a.chain, a.address, a.tag) === destinationKey(input.chain, input.address, input.memo),
      )?.name || undefined;
    const chainName = chain.nameEn;
    const currencyRules = statuses.find((r) => r.currency === input.currency);
    if (currencyRules) {
      const available = spot.find((a) => a.currency === input.currency)?.available ?? '0';
      const problem = amountProblem({ amount: input.amount, rules: currencyRules, chain, available });
      if (problem) throw invalid(problem, 'amount');
      return { quote: quote(currencyRules, input.chain, input.amount, chain.decimals), savedAs, chainName };
    }
    return { savedAs, chainName };
  };

  /** A currency's saved addresses (on one chain, or all): always read, a read under way shared, kept for the precheck. */
  const savedAddresses = (currency: string, chain?: string) =>
    rules.get(savedAddressesKey(currency, chain), 0, () => readSavedAddresses(currency, chain));

  return { rules, readRules, readChains, readWithdrawals, savedAddresses, precheckWithdrawal };
};

/** A currency's saved addresses with their use counts (what Bulk checks withdrawal rows against). */
export const createSavedAddresses =
  (ctx: ServiceContext) =>
  (currency: string): Promise<SavedAddress[]> =>
    fundingReads(ctx).savedAddresses(currency);

/** A withdrawal's precheck for the domain command (commands/movements.ts), over the shared rules cache. */
export const createWithdrawalPrecheck = (ctx: ServiceContext): WithdrawalPrecheck =>
  fundingReads(ctx).precheckWithdrawal;

/** The active profile's review threshold (part of its policy, policies/handlers.ts): read, and changed as a control change. */
export interface ReviewThreshold {
  get(): ReviewPolicy;
  set(review: ReviewPolicy): Promise<ReviewPolicy>;
}

/** Handlers of the `funding` area: reads, and withdrawals and UID transfers through their domain commands. */
export const createFundingHandlers = (
  ctx: ServiceContext,
  commands: MovementCommands,
  review: ReviewThreshold,
): DeskHandlers['funding'] => {
  const api = () => ctx.platform();
  const { rules, readRules, readChains, readWithdrawals, savedAddresses } = fundingReads(ctx);

  const journalView = (m: Movement | undefined) => (m ? withdrawalJournalView(m) : undefined);

  const findWithdrawalMovement = (predicate: (m: Movement) => boolean, since?: number) =>
    ctx.movements.list({ kind: 'withdrawal', ...(since !== undefined ? { from: since } : {}) }).find(predicate);

  return {
    // Always read (a screen asks when it wants them new), kept for the precheck; reads at once share one request.
    withdrawRules: ({ currency }) => readRules(currency, 0),

    chains: ({ currency }) => readChains(currency, 0),

    depositAddress: async ({ currency }) => toDepositAddress(await api().wallet.depositAddress(currency)),

    deposits: async ({ currency, range }) => {
      const records = await readAllWindows(range.from, range.to, {
        pageSize: 500,
        read: (w, offset, limit) =>
          api().wallet.deposits({ from: w.from, to: w.to, offset, limit, ...(currency ? { currency } : {}) }),
      });
      return records.map(toDeposit).sort((a, b) => b.time - a.time);
    },

    withdrawals: async ({ currency, range }) =>
      (await readWithdrawals(range.from, range.to, currency)).map(toWithdrawal).sort((a, b) => b.time - a.time),

    withdrawal: async (input) => {
      if ('id' in input) {
        const [record] = await api().wallet.withdrawals({ withdraw_id: input.id });
        return { record: record ? toWithdrawal(record) : null };
      }
      const movement = findWithdrawalMovement((m) => m.clientId === input.withdrawOrderId);
      const recent = movement !== undefined && Date.now() - movement.createdAt < 29 * DAY * 1000;
      const [record] = await api().wallet.withdrawals({
        withdraw_order_id: input.withdrawOrderId,
        // Our own withdrawals are found from their journal time (an hour's margin each side for a
        // platform clock that differs from ours); others within the platform's default 7 days.
        ...(recent ? { from: Math.floor(movement.createdAt / 1000) - 3600, to: nowSeconds() + 3600 } : {}),
      });
      const journal = journalView(movement);
      return { record: record ? toWithdrawal(record) : null, ...(journal ? { journal } : {}) };
    },

    savedAddresses: ({ currency, chain }) => savedAddresses(currency, chain),

    withdraw: async ({ requestKey, ...request }): Promise<WithdrawResult> => {
      const result = await commands.submit('withdrawal', request, { requestKey, origin: SCREEN });
      switch (result.state) {
        case 'refused':
          throw result.failure;
        case 'unknown':
          // The journal keeps checking by its client id; hand that id to the screen to follow.
          if (!result.movement) throw result.failure;
          return { outcome: 'unknown', withdrawOrderId: result.movement.clientId, note: result.failure.detail.message };
        case 'done': {
          const { movement } = result;
          // The day's remaining limit moved: the next precheck reads the rules again.
          rules.invalidate('withdrawStatus:');
          // This destination now counts one more use.
          rules.invalidate('savedAddresses:');
          // The record from the platform's answer (id, status), the journal and the fee the rules
          // say (what the review showed); no read-back: the watchers' event brings the platform's
          // full record (its fee, txid) to the screen.
          const accepted = withdrawalFromMovement(movement);
          const fee = result.quote?.fee;
          const record = accepted && fee !== undefined ? { ...accepted, fee } : accepted;
          return { outcome: 'accepted', withdrawOrderId: movement.clientId, ...(record ? { record } : {}) };
        }
      }
    },

    cancelWithdrawal: async ({ id }) => {
      await api().withdrawals.cancel(id);
      rules.invalidate('withdrawStatus:');
      // DELETE answers 202: read the record for its current status.
      const [record] = await api().wallet.withdrawals({ withdraw_id: id });
      if (!record) throw DeskFailure.precondition(`Withdrawal ${id} was not found after cancelling.`);
      return toWithdrawal(record);
    },

    push: async ({ requestKey, ...request }) => {
      const result = await commands.submit('push', request, { requestKey, origin: SCREEN });
      switch (result.state) {
        case 'refused':
          throw result.failure;
        case 'unknown':
          if (!result.movement) throw result.failure;
          return { outcome: 'unknown' as const, intentId: result.movement.id, note: result.failure.detail.message };
        case 'done':
          return {
            outcome: 'accepted' as const,
            intentId: result.movement.id,
            ...(result.movement.platformId ? { id: result.movement.platformId } : {}),
          };
      }
    },

    pushes: async ({ transactionType, range }) => {
      const records = await readAllWindows(range.from, range.to, {
        pageSize: 100,
        read: (w, offset, limit) =>
          api().wallet.pushRecords({ from: w.from, to: w.to, offset, limit, transaction_type: transactionType }),
      });
      return records.map((r) => toPush(r, transactionType)).sort((a, b) => b.createTime - a.createTime);
    },

    reviewPolicy: async () => review.get(),

    setReviewPolicy: (policy) => review.set(policy),
  };
};
