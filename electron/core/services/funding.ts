import type { DeskHandlers } from '../../../shared/contract';
import {
  amountProblem,
  destinationKey,
  quote,
  type ReviewPolicy,
  type WithdrawalRecord,
  type WithdrawDetails,
  type WithdrawResult,
} from '../../../shared/contract/funding';
import { DeskFailure } from '../errors';
import {
  toChain,
  toDeposit,
  toDepositAddress,
  toPush,
  toRules,
  toSavedAddress,
  toWithdrawal,
} from '../funding/records';
import { readAllWindows } from '../funding/windows';
import { DUPLICATE_LABELS } from '../movements/engine';
import type { Movement } from '../movements/types';
import type { ServiceContext } from './context';
import type { Guard } from './guard';

const REVIEW_POLICY_KEY = 'funding.reviewPolicy';
const DAY = 86_400;
/** Withdrawal statuses that mean nothing was sent: they do not count as "used this address". */
const NOT_SENT = new Set(['CANCEL', 'CANCELPEND', 'INVALID', 'REJECT']);

const invalid = (message: string, field: string): DeskFailure =>
  new DeskFailure({ code: 'INVALID_INPUT', message, fields: { [field]: message } });

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Handlers of the `funding` area. */
export const createFundingHandlers = (ctx: ServiceContext, guard: Guard): DeskHandlers['funding'] => {
  const api = () => ctx.platform();

  const readWithdrawals = (from: number, to: number, currency?: string) =>
    readAllWindows(from, to, {
      pageSize: 500,
      read: (w, offset, limit) =>
        api().wallet.withdrawals({ from: w.from, to: w.to, offset, limit, ...(currency ? { currency } : {}) }),
    });

  /**
   * The same rules the screen checks, checked again with fresh platform data before the journal
   * sends anything: a mistake or a stale screen is stopped here with the reason, nothing sent.
   * Returns the fee the platform will take (for the trusted confirmation), when its rules are known.
   */
  const precheckWithdrawal = async (input: WithdrawDetails): Promise<string | undefined> => {
    const [chains, statuses, spot] = await Promise.all([
      api().wallet.currencyChains(input.currency),
      api().wallet.withdrawStatus(input.currency),
      api().spot.accounts(input.currency),
    ]);
    const chain = chains.map(toChain).find((c) => c.chain === input.chain);
    if (!chain) throw invalid(`${input.currency} cannot be withdrawn on network ${input.chain}.`, 'chain');
    if (chain.disabled || chain.withdrawDisabled) {
      throw invalid(`Withdrawals of ${input.currency} on ${input.chain} are suspended by the platform.`, 'chain');
    }
    if (chain.usesMemo && !input.memo) {
      throw invalid(`${input.chain} needs a memo/tag: without it the funds cannot be credited.`, 'memo');
    }
    const rules = statuses.map(toRules).find((r) => r.currency === input.currency);
    if (rules) {
      const available = spot.find((a) => a.currency === input.currency)?.available ?? '0';
      const problem = amountProblem({ amount: input.amount, rules, chain, available });
      if (problem) throw invalid(problem, 'amount');
      return quote(rules, input.chain, input.amount, chain.decimals).fee;
    }
    return undefined;
  };

  const journalView = (m: Movement | undefined) =>
    m
      ? {
          state: m.state,
          ...(m.label ? { label: m.label } : {}),
          ...(m.message ? { message: m.message } : {}),
          ...(m.state === 'unknown' && m.label && DUPLICATE_LABELS.has(m.label)
            ? {
                attention:
                  m.message ??
                  'The platform said it already has this withdrawal, but its records do not show it. Check it on the platform and settle it by hand in Activity.',
              }
            : {}),
        }
      : undefined;

  const findWithdrawalMovement = (predicate: (m: Movement) => boolean, since?: number) =>
    ctx.movements.list({ kind: 'withdrawal', ...(since !== undefined ? { from: since } : {}) }).find(predicate);

  const readPolicy = (): ReviewPolicy => ctx.settings.get<ReviewPolicy>(REVIEW_POLICY_KEY, { typedConfirmAbove: {} });

  return {
    withdrawRules: async ({ currency }) => (await api().wallet.withdrawStatus(currency)).map(toRules),

    chains: async ({ currency }) => (await api().wallet.currencyChains(currency)).map(toChain),

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

    savedAddresses: async ({ currency, chain }) => {
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
    },

    withdraw: async (input): Promise<WithdrawResult> => {
      const { requestKey } = input;
      // A repeat of a confirmation already journaled joins it; only a new one is checked (the
      // first may already have spent the balance the check would look for).
      const fee = ctx.movements.byRequestKey(requestKey) === undefined ? await precheckWithdrawal(input) : undefined;
      // What main journals and sends is exactly what the trusted confirmation shows.
      const request = {
        currency: input.currency,
        chain: input.chain,
        address: input.address,
        amount: input.amount,
        ...(input.memo ? { memo: input.memo } : {}),
      };
      const release = await guard.movement({ kind: 'withdrawal', requestKey, request, fee });
      try {
        const movement = await ctx.movements.withdraw(request, { requestKey }).finally(release);
        let record: WithdrawalRecord | undefined;
        try {
          const [found] = await api().wallet.withdrawals({ withdraw_order_id: movement.clientId });
          record = found ? toWithdrawal(found) : undefined;
        } catch {
          // Accepted is certain; the record is read again by the screen.
        }
        return { outcome: 'accepted', withdrawOrderId: movement.clientId, ...(record ? { record } : {}) };
      } catch (error) {
        if (!(error instanceof DeskFailure) || error.detail.code !== 'OUTCOME_UNKNOWN') throw error;
        // The journal keeps checking by its client id; hand that id to the screen to follow.
        const movement = ctx.movements.byRequestKey(requestKey);
        if (!movement) throw error;
        return {
          outcome: 'unknown',
          withdrawOrderId: movement.clientId,
          note: error.detail.message,
        };
      }
    },

    cancelWithdrawal: async ({ id }) => {
      await api().withdrawals.cancel(id);
      // DELETE answers 202: read the record for its current status.
      const [record] = await api().wallet.withdrawals({ withdraw_id: id });
      if (!record) throw DeskFailure.precondition(`Withdrawal ${id} was not found after cancelling.`);
      return toWithdrawal(record);
    },

    push: async (input) => {
      const { requestKey } = input;
      const release = await guard.movement({
        kind: 'push',
        requestKey,
        request: { receiveUid: input.receiveUid, currency: input.currency, amount: input.amount },
      });
      try {
        const movement = await ctx.movements
          .push({ receive_uid: input.receiveUid, currency: input.currency, amount: input.amount }, { requestKey })
          .finally(release);
        return {
          outcome: 'accepted' as const,
          intentId: movement.id,
          ...(movement.platformId ? { id: movement.platformId } : {}),
        };
      } catch (error) {
        if (!(error instanceof DeskFailure) || error.detail.code !== 'OUTCOME_UNKNOWN') throw error;
        const movement = ctx.movements.byRequestKey(requestKey);
        if (!movement) throw error;
        return { outcome: 'unknown' as const, intentId: movement.id, note: error.detail.message };
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

    reviewPolicy: async () => readPolicy(),

    setReviewPolicy: async (policy) => {
      const normalised: ReviewPolicy = {
        typedConfirmAbove: Object.fromEntries(
          Object.entries(policy.typedConfirmAbove).map(([currency, amount]) => [currency.toUpperCase(), amount]),
        ),
      };
      ctx.settings.set(REVIEW_POLICY_KEY, normalised);
      ctx.audit.record({ action: 'funding.setReviewPolicy', params: normalised, outcome: 'ok' });
      return normalised;
    },
  };
};
