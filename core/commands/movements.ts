/**
 * The domain commands that move money (docs/architecture.md, "Domain commands"): one per movement
 * kind, below the IPC handlers, called the same way by the handlers (a person on a screen) and by
 * the batch runner (a row of a batch confirmed as a whole):
 *
 *   submit(kind, request, { requestKey, origin }):
 *     precheck → authorize (policies/authorize.ts: role → limits and reservation → approval →
 *     confirmation) → journal and execute (the movement engine, which never sends twice)
 *
 * The origin is explicit and journaled with the intent and the audit log. An approved item of the
 * Approvals queue is sent here too (`approve`), under its maker's request key.
 */
import { destinationKey, type PushDetails, type WithdrawDetails } from '../../shared/contract/funding';
import type { Approval } from '../../shared/contract/policies';
import type { TransferInput } from '../../shared/contract/transfers';
import type { ApprovalQueue, StoredApproval } from '../approvals/queue';
import { assertSafeText } from '../errors';
import type { AuditLog } from '../journal/types';
import type { MovementParams } from '../movements/registry';
import type { MovementResult, Movements } from '../movements/types';
import { type Authorizer, movementSummary, type Origin, originText, type Proposal } from '../policies/authorize';
import { pushDestination } from '../policies/evaluate';
import type { PolicyStore } from '../policies/store';
import type { MovementFacts, WithdrawalFacts } from '../policies/views';

/** What each movement kind takes (the same as its operation's input, without the request key). */
export interface MovementRequests {
  readonly withdrawal: WithdrawDetails;
  readonly push: PushDetails;
  readonly transfer: DistributiveOmit<TransferInput, 'requestKey'>;
}
export type MovementCommandKind = keyof MovementRequests;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface SubmitOptions {
  readonly requestKey: string;
  readonly origin: Origin;
}

/** The result of a submit: the engine's value, and for a withdrawal what its precheck learnt (the fee). */
export type SubmitResult = MovementResult & { readonly quote?: WithdrawalFacts['quote'] };

/** What a withdrawal's precheck knows once it passed (for the confirmation and the answer). */
export type WithdrawalPrecheck = (
  request: WithdrawDetails,
) => Promise<Pick<WithdrawalFacts, 'quote' | 'savedAs' | 'chainName'>>;

/** What the engine journals and sends for a command's request: its kind and body. */
export interface EngineCall {
  readonly kind: keyof MovementParams;
  readonly body: MovementParams[keyof MovementParams];
}

/**
 * Team mode (docs/team.md): while the desk is in a team, a movement is not journaled and sent here
 * but prepared in the team's journal — signed by its maker, the firm-wide limits checked as its
 * amount is reserved — and sent once by the desk that claims it (teamDesk/). `active()` is asked at
 * every submit: joining or leaving a team changes it at once.
 */
export interface TeamMovementRoute {
  active(): boolean;
  submit(input: {
    readonly proposal: Proposal;
    readonly call: EngineCall;
    readonly origin: Origin;
  }): Promise<MovementResult>;
}

export interface MovementCommandsDeps {
  readonly movements: Movements;
  readonly authorizer: Authorizer;
  readonly queue: ApprovalQueue;
  readonly policies: PolicyStore;
  readonly audit: AuditLog;
  /**
   * Checks a withdrawal against the platform's rules and the balance before anything else (INVALID_INPUT
   * with the field, nothing sent) and tells its fee, what the recipient gets and the saved label.
   */
  readonly precheckWithdrawal: WithdrawalPrecheck;
  /** A transfer's two ends in the review's words ("Main · Spot", "desk_ops (UID 10000003) · Spot"). */
  readonly transferRoute: (input: MovementRequests['transfer']) => Promise<{ from: string; to: string }>;
  /** Team mode's route (absent: the desk works alone). */
  readonly team?: TeamMovementRoute;
}

export interface MovementCommands {
  submit<K extends MovementCommandKind>(
    kind: K,
    request: MovementRequests[K],
    options: SubmitOptions,
  ): Promise<SubmitResult>;
  /** Sends an approved withdrawal or push exactly as its maker confirmed it (an approver decides). */
  approve(a: StoredApproval, reason: string): Promise<Approval>;
  /** After a restart: items left `approved` without a send are settled (never sent late). */
  recover(): void;
}

/** The engine's kind and body of a transfer route (one place). */
const transferBody = (input: MovementRequests['transfer']) => {
  switch (input.kind) {
    case 'own':
      return {
        kind: 'transfer' as const,
        body: {
          currency: input.currency,
          from: input.from,
          to: input.to,
          amount: input.amount,
          ...(input.currencyPair ? { currency_pair: input.currencyPair } : {}),
          ...(input.settle ? { settle: input.settle } : {}),
        } satisfies MovementParams['transfer'],
      };
    case 'mainSub':
      return {
        kind: 'subAccountTransfer' as const,
        body: {
          sub_account: String(input.subUserId),
          sub_account_type: input.subAccountType,
          currency: input.currency,
          amount: input.amount,
          direction: input.direction,
        } satisfies MovementParams['subAccountTransfer'],
      };
    case 'subSub':
      return {
        kind: 'subToSubTransfer' as const,
        body: {
          currency: input.currency,
          sub_account_from: String(input.fromUserId),
          sub_account_from_type: input.fromType,
          sub_account_to: String(input.toUserId),
          sub_account_to_type: input.toType,
          amount: input.amount,
        } satisfies MovementParams['subToSubTransfer'],
      };
  }
};

const withdrawalBody = (r: WithdrawDetails): MovementParams['withdrawal'] => ({
  currency: r.currency,
  chain: r.chain,
  address: r.address,
  amount: r.amount,
  ...(r.memo ? { memo: r.memo } : {}),
});

const pushBody = (r: PushDetails): MovementParams['push'] => ({
  receive_uid: r.receiveUid,
  currency: r.currency,
  amount: r.amount,
});

const withdrawalDestinationText = (r: WithdrawDetails): string =>
  `${r.address}${r.memo ? ` (memo ${r.memo})` : ''} on ${r.chain}`;

export const createMovementCommands = (deps: MovementCommandsDeps): MovementCommands => {
  /** Journals and executes; the origin goes with the intent, and a new one is audited with it. */
  const execute = async <K extends keyof MovementParams>(
    kind: K,
    body: MovementParams[K],
    requestKey: string,
    origin: string,
  ): Promise<MovementResult> => {
    const isNew = deps.movements.byRequestKey(requestKey) === undefined;
    const result = await deps.movements.execute(kind, body, { requestKey, origin });
    if (isNew && result.movement) {
      deps.audit.record({
        action: `movements.${kind}`,
        profileId: result.movement.profileId,
        params: { movement: result.movement.id, requestKey, origin, state: result.state },
        outcome: result.state === 'done' ? 'ok' : result.state === 'unknown' ? 'unknown' : 'error',
      });
    }
    return result;
  };

  const allowlistLabel = (r: WithdrawDetails): string | undefined => {
    const active = deps.authorizer.profile();
    const key = destinationKey(r.chain, r.address, r.memo);
    return deps.policies
      .get(active.id)
      .allowlist.entries.find(
        (e) =>
          e.currency.toUpperCase() === r.currency.toUpperCase() && destinationKey(e.chain, e.address, e.memo) === key,
      )?.label;
  };

  /** The proposal of a movement, with what its precheck found out. */
  const proposalOf = async <K extends MovementCommandKind>(
    kind: K,
    request: MovementRequests[K],
    requestKey: string,
    joining: boolean,
  ): Promise<Proposal> => {
    if (kind === 'withdrawal') {
      const r = request as WithdrawDetails;
      // A repeat of a confirmation already journaled joins it: the first may have spent the balance.
      const checked = joining ? {} : await deps.precheckWithdrawal(r);
      const facts: MovementFacts = {
        kind: 'withdrawal',
        currency: r.currency,
        amount: r.amount,
        chain: r.chain,
        address: r.address,
        memo: r.memo,
        allowlistLabel: allowlistLabel(r),
        ...checked,
      };
      return {
        requestKey,
        facts,
        destination: destinationKey(r.chain, r.address, r.memo),
        request: { ...withdrawalBody(r) },
        summary: movementSummary(facts),
        destinationText: withdrawalDestinationText(r),
      };
    }
    if (kind === 'push') {
      const r = request as PushDetails;
      const facts: MovementFacts = { kind: 'push', currency: r.currency, amount: r.amount, receiveUid: r.receiveUid };
      return {
        requestKey,
        facts,
        destination: pushDestination(r.receiveUid),
        request: { receiveUid: r.receiveUid, currency: r.currency, amount: r.amount },
        summary: movementSummary(facts),
        destinationText: `UID ${r.receiveUid}`,
      };
    }
    const r = request as MovementRequests['transfer'];
    const route = await deps.transferRoute(r);
    const facts: MovementFacts = { kind: 'transfer', currency: r.currency, amount: r.amount, ...route };
    return {
      requestKey,
      facts,
      request: { ...r },
      summary: movementSummary(facts),
      destinationText: route.to,
    };
  };

  /** The engine's call for a command's request (one place for the three kinds). */
  const engineCall = <K extends MovementCommandKind>(kind: K, request: MovementRequests[K]): EngineCall => {
    if (kind === 'withdrawal') return { kind: 'withdrawal', body: withdrawalBody(request as WithdrawDetails) };
    if (kind === 'push') return { kind: 'push', body: pushBody(request as PushDetails) };
    return transferBody(request as MovementRequests['transfer']);
  };

  /** Journals and executes an authorized movement. */
  const send = <K extends MovementCommandKind>(
    kind: K,
    request: MovementRequests[K],
    requestKey: string,
    origin: string,
  ): Promise<MovementResult> => {
    const call = engineCall(kind, request);
    return execute(call.kind, call.body as never, requestKey, origin);
  };

  /** A stored item's request as a command's request (what the maker confirmed). */
  const requestOf = (a: StoredApproval): { kind: 'withdrawal' | 'push'; request: WithdrawDetails | PushDetails } => {
    const r = a.request;
    if (a.kind === 'withdrawal') {
      return {
        kind: 'withdrawal',
        request: {
          currency: String(r.currency),
          chain: String(r.chain),
          address: String(r.address),
          amount: String(r.amount),
          ...(typeof r.memo === 'string' && r.memo !== '' ? { memo: r.memo } : {}),
        },
      };
    }
    return {
      kind: 'push',
      request: { receiveUid: Number(r.receiveUid), currency: String(r.currency), amount: String(r.amount) },
    };
  };

  return {
    submit: async (kind, request, { requestKey, origin }) => {
      // What the person reads is what is sent: nothing invisible, no look-alike (for every caller).
      if (kind === 'withdrawal') {
        const { address, memo } = request as WithdrawDetails;
        assertSafeText({ address: [address, 'address'], memo: [memo, 'memo'] });
      }
      const joining = deps.movements.byRequestKey(requestKey) !== undefined;
      // 1. Precheck (nothing is asked of the person for a request the platform would refuse).
      const proposal = await proposalOf(kind, request, requestKey, joining);
      if (deps.team?.active()) {
        // Team mode: signed, reserved firm-wide and sent once from the team's journal.
        const result = await deps.team.submit({ proposal, call: engineCall(kind, request), origin });
        return proposal.facts.kind === 'withdrawal' ? { ...result, quote: proposal.facts.quote } : result;
      }
      // 2. Authorize: role → limits and reservation → approval → confirmation.
      const release = await deps.authorizer.authorize(proposal, origin);
      // 3. Journal and execute.
      try {
        const result = await send(kind, request, requestKey, originText(origin));
        return proposal.facts.kind === 'withdrawal' ? { ...result, quote: proposal.facts.quote } : result;
      } finally {
        release();
      }
    },

    approve: async (a, reason) => {
      const { kind, request } = requestOf(a);
      const stored = a.request.facts as MovementFacts | undefined;
      // The approver sees what the maker saw (stored with the item), or what can be rebuilt of it.
      const proposal = await proposalOf(kind, request, a.requestKey, true);
      const release = await deps.authorizer.approve(a, stored ? { ...proposal, facts: stored } : proposal, reason);
      try {
        const result = await send(kind, request, a.requestKey, a.origin ?? 'screen');
        if (result.state === 'refused') {
          const journaled = deps.movements.byRequestKey(a.requestKey);
          return deps.queue.settle(
            a.id,
            journaled && journaled.state !== 'failed' ? 'sent' : 'failed',
            journaled?.id,
            result.failure.message,
          );
        }
        return deps.queue.settle(
          a.id,
          'sent',
          result.movement?.id ?? deps.movements.byRequestKey(a.requestKey)?.id,
          result.state === 'unknown' ? result.failure.message : undefined,
        );
      } catch (error) {
        const journaled = deps.movements.byRequestKey(a.requestKey);
        const message = error instanceof Error ? error.message : String(error);
        return deps.queue.settle(
          a.id,
          journaled && journaled.state !== 'failed' ? 'sent' : 'failed',
          journaled?.id,
          message,
        );
      } finally {
        release();
      }
    },

    recover: () => {
      for (const a of [...deps.queue.approvedUnsent('withdrawal'), ...deps.queue.approvedUnsent('push')]) {
        const journaled = deps.movements.byRequestKey(a.requestKey);
        if (journaled) deps.queue.settle(a.id, 'sent', journaled.id, undefined);
        else
          deps.queue.settle(
            a.id,
            'failed',
            undefined,
            'The app stopped between the approval and the send; it was not sent. Prepare it again if it is still needed.',
          );
      }
    },
  };
};
