/**
 * Operations of the `transfers` area: moving funds between the main account's own accounts
 * (spot, margin, futures, delivery, options), between the main account and a sub-account, and
 * between two sub-accounts. Every transfer goes through the core's journaled money movements, so
 * an unclear outcome is reconciled ("checking") and never resent blindly.
 *
 * The amount rules live here once (`amountProblem`) and are used by the form before sending and,
 * through the schemas, by main again.
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import { AMOUNT_FORMAT_MESSAGE, formatMoney } from '../format/money';
import { operation } from '../ipc/define';
import { SubAccountType, SubToSubAccountType, TransferAccount } from '../platform/api/wallet';
import type { MovementView } from './activity';
import { RequestKey } from './funding';

/** The platform accepts at most 8 decimals on every transfer. */
export const TRANSFER_MAX_DECIMALS = 8;

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/**
 * What is wrong with a transfer amount, in words for the person typing it, or undefined when it is
 * fine. `available` (decimal text) is checked only when known; `currency` names its unit.
 */
export const amountProblem = (amount: string, available?: string, currency = ''): string | undefined => {
  const text = amount.trim();
  if (text === '') return 'Enter an amount.';
  if (!PLAIN_DECIMAL.test(text)) return AMOUNT_FORMAT_MESSAGE;
  const decimals = text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
  if (decimals > TRANSFER_MAX_DECIMALS) {
    return `At most ${TRANSFER_MAX_DECIMALS} decimals are allowed (this has ${decimals}).`;
  }
  const value = new Decimal(text);
  if (value.lte(0)) return 'The amount must be greater than 0.';
  if (available !== undefined && PLAIN_DECIMAL.test(available) && value.gt(available)) {
    return `That is more than the ${formatMoney(available, currency)} available.`;
  }
  return undefined;
};

/** The amount as the platform takes it: validated decimal text. */
export const TransferAmountText = z
  .string()
  .max(64)
  .superRefine((value, ctx) => {
    const problem = amountProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

const currency = z
  .string()
  .max(32)
  .regex(/^[A-Z0-9_]{1,32}$/, 'Use the currency symbol in capitals, e.g. USDT')
  .describe('currency symbol');
const userId = z.number().int().positive();

/** Which extra field a transfer between own accounts needs: the pair for margin, settle for contracts. */
export const ownTransferNeeds = (
  from: TransferAccount,
  to: TransferAccount,
): { readonly currencyPair: boolean; readonly settle: boolean } => ({
  currencyPair: from === 'margin' || to === 'margin',
  settle: from === 'futures' || to === 'futures' || from === 'delivery' || to === 'delivery',
});

export const OwnTransferInput = z
  .object({
    kind: z.literal('own'),
    currency,
    from: TransferAccount,
    to: TransferAccount,
    amount: TransferAmountText,
    requestKey: RequestKey,
    /** Required when margin is involved (the isolated-margin market, e.g. BTC_USDT). */
    currencyPair: z
      .string()
      .max(32)
      .regex(/^[A-Z0-9]+_[A-Z0-9]+$/)
      .optional(),
    /** Required when futures or delivery is involved (settlement currency, e.g. usdt). */
    settle: z
      .string()
      .max(16)
      .regex(/^[a-z0-9]{1,16}$/)
      .optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.from === value.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'Choose two different accounts.' });
    const needs = ownTransferNeeds(value.from, value.to);
    if (needs.currencyPair && value.currencyPair === undefined) {
      ctx.addIssue({ code: 'custom', path: ['currencyPair'], message: 'Margin transfers need the market (pair).' });
    }
    if (needs.settle && value.settle === undefined) {
      ctx.addIssue({ code: 'custom', path: ['settle'], message: 'Contract transfers need the settle currency.' });
    }
  });

export const MainSubTransferInput = z
  .object({
    kind: z.literal('mainSub'),
    /** to = from the main spot account into the sub-account; from = back to the main spot account. */
    direction: z.enum(['to', 'from']),
    subUserId: userId,
    subAccountType: SubAccountType,
    currency,
    amount: TransferAmountText,
    requestKey: RequestKey,
  })
  .strict();

export const SubSubTransferInput = z
  .object({
    kind: z.literal('subSub'),
    fromUserId: userId,
    fromType: SubToSubAccountType,
    toUserId: userId,
    toType: SubToSubAccountType,
    currency,
    amount: TransferAmountText,
    requestKey: RequestKey,
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.fromUserId === value.toUserId && value.fromType === value.toType) {
      ctx.addIssue({ code: 'custom', path: ['toUserId'], message: 'Choose a different destination.' });
    }
  });

export const TransferInput = z.discriminatedUnion('kind', [
  OwnTransferInput,
  MainSubTransferInput,
  SubSubTransferInput,
]);
export type TransferInput = z.infer<typeof TransferInput>;
/** What the person fills in (the form): the input without the confirmation's request key. */
export type TransferDetails = TransferInput extends infer T
  ? T extends unknown
    ? Omit<T, 'requestKey'>
    : never
  : never;
export type TransferKind = TransferInput['kind'];

/**
 * Where a transfer stands. `checking`: the platform's answer was lost (timeout, cut connection,
 * 5xx); the core asks the platform by client_order_id and never resends blindly.
 */
export const TransferState = z.enum(['done', 'checking', 'failed']);
export type TransferState = z.infer<typeof TransferState>;

export const TransferOutcome = z.object({
  /** The journal's id of this movement (the client_order_id where the platform takes one). */
  id: z.string(),
  state: TransferState,
  txId: z.string().optional(),
  /** Plain words for failed/checking, with the platform's label when there is one. */
  message: z.string().optional(),
  label: z.string().optional(),
  requestId: z.string().optional(),
  /**
   * While checking: what the journal found that patience alone may not settle — the platform
   * reports a status other than success, or says it has the transfer while its records do not show
   * it (then a person checks the platform and settles it in Activity).
   */
  attention: z.string().optional(),
});
export type TransferOutcome = z.infer<typeof TransferOutcome>;

/** Which account funds leave from, to look up what is available there. */
export const BalanceSource = z
  .object({
    /** 'main' or a sub-account's user id. */
    owner: z.union([z.literal('main'), userId]),
    account: TransferAccount,
    currency,
    currencyPair: z.string().max(32).optional(),
    settle: z.string().max(16).optional(),
  })
  .strict();
export type BalanceSource = z.infer<typeof BalanceSource>;

export const TransferRecord = z.object({
  /** Unique per row: the journal id or the platform's record key. */
  id: z.string(),
  /** Unix milliseconds. */
  time: z.number(),
  kind: z.enum(['own', 'mainSub', 'subSub']),
  /** Plain words, e.g. "Main · spot", "Sub 1000002 · futures". */
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  amount: z.string(),
  state: z.enum(['done', 'checking', 'failed', 'pending']),
  /** Plain words for the state, including the platform's status when it has its own. */
  stateText: z.string(),
  clientOrderId: z.string().optional(),
  /** Where the row comes from: the platform's transfer records or the app's own journal. */
  source: z.enum(['platform', 'journal']),
});
export type TransferRecord = z.infer<typeof TransferRecord>;

export const transfers = {
  send: operation(
    'Moves funds (own accounts, main↔sub or sub↔sub) through the journaled money movements; amount > 0, ≤ 8 decimals. The same requestKey returns the same transfer.',
    TransferInput,
    TransferOutcome,
  ),
  status: operation(
    'Where a transfer sent earlier stands; for "checking" the core reconciles through /wallet/order_status.',
    z.object({ id: z.string().min(1).max(100) }).strict(),
    TransferOutcome,
  ),
  available: operation(
    'What can leave an account now (main or a sub-account), or null when the platform does not say.',
    BalanceSource,
    z.object({ available: z.string().nullable(), note: z.string().optional() }),
  ),
  history: operation(
    'Transfers of a period (at most 30 days, default the last 7): sub-account transfer records plus own-account transfers from the journal.',
    z
      .object({
        /** Unix seconds; default 7 days before `to`. */
        from: z.number().int().positive().optional(),
        /** Unix seconds; default now. */
        to: z.number().int().positive().optional(),
        subUserId: userId.optional(),
      })
      .strict()
      .refine((v) => v.from === undefined || v.to === undefined || (v.to >= v.from && v.to - v.from <= 30 * 86400), {
        message: 'Choose a period of at most 30 days.',
      }),
    z.object({ records: z.array(TransferRecord) }),
  ),
};

// ---------------------------------------------------------------------------------------------
// A journaled transfer as a history row: built by main for `transfers.history`, and by the screen
// from an `activity.movementChanged` event (the movement is the whole record: nothing is read again).

/** The movement kinds that are transfers. */
export const TRANSFER_MOVEMENT_KINDS = ['transfer', 'subAccountTransfer', 'subToSubTransfer'] as const;

export const isTransferMovement = (movement: Pick<MovementView, 'kind'>): boolean =>
  (TRANSFER_MOVEMENT_KINDS as readonly string[]).includes(movement.kind);

const ACCOUNT_WORDS: Record<string, string> = {
  spot: 'spot',
  margin: 'isolated margin',
  futures: 'perpetual futures',
  delivery: 'delivery futures',
  options: 'options',
  cross_margin: 'cross margin',
};
/** An account type in the history's words ("perpetual futures"). */
export const transferAccountWords = (account: unknown): string =>
  typeof account === 'string' ? (ACCOUNT_WORDS[account] ?? account) : 'spot';

/** How a sub-account is named in the history, from its uid. */
export type SubName = (uid: string) => string;

/** "desk-ops (UID 1000002)", or "Sub-account 1000002" when its login name is not known. */
export const subAccountName = (uid: string, loginName: string | undefined): string =>
  loginName ? `${loginName} (UID ${uid})` : `Sub-account ${uid}`;

/** An account type as the transfer review names it ("Perpetual futures"). */
export const TRANSFER_ACCOUNT_TEXT: Readonly<Record<string, string>> = {
  spot: 'Spot',
  margin: 'Isolated margin',
  futures: 'Perpetual futures',
  delivery: 'Delivery futures',
  options: 'Options',
};

/**
 * A transfer's two ends as its review shows them: "Main · Spot", "desk_ops (UID 10000003) · Spot",
 * "Main · Isolated margin (BTC_USDT)". The trusted confirmation shows the same words.
 */
export const transferEnds = (input: TransferDetails, name: SubName): { from: string; to: string } => {
  const text = (account: string) => TRANSFER_ACCOUNT_TEXT[account] ?? account;
  switch (input.kind) {
    case 'own': {
      const extra = [input.currencyPair ?? '', input.settle ? `settle ${input.settle.toUpperCase()}` : '']
        .filter(Boolean)
        .join(', ');
      const suffix = extra ? ` (${extra})` : '';
      return { from: `Main · ${text(input.from)}${suffix}`, to: `Main · ${text(input.to)}${suffix}` };
    }
    case 'mainSub': {
      const sub = `${name(String(input.subUserId))} · ${text(input.subAccountType ?? 'spot')}`;
      return input.direction === 'to' ? { from: 'Main · Spot', to: sub } : { from: sub, to: 'Main · Spot' };
    }
    case 'subSub':
      return {
        from: `${name(String(input.fromUserId))} · ${text(input.fromType)}`,
        to: `${name(String(input.toUserId))} · ${text(input.toType)}`,
      };
  }
};

const param = (movement: MovementView, field: string): unknown => movement.params[field];

/** Sub-account user ids a journaled transfer touches (for the sub-account filter). */
export const transferSubAccounts = (movement: MovementView): string[] =>
  [param(movement, 'sub_account'), param(movement, 'sub_account_from'), param(movement, 'sub_account_to')]
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String);

const JOURNAL_STATE: Record<MovementView['state'], { state: TransferRecord['state']; text: string }> = {
  prepared: { state: 'checking', text: 'Unknown — checking' },
  sent: { state: 'checking', text: 'Unknown — checking' },
  unknown: { state: 'checking', text: 'Unknown — checking' },
  done: { state: 'done', text: 'Done' },
  failed: { state: 'failed', text: 'Failed' },
};

/** A journaled transfer (any kind) → its history row (id `j-<journal id>`); undefined for other kinds. */
export const transferHistoryRow = (movement: MovementView, subName: SubName): TransferRecord | undefined => {
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
      const pair = param(movement, 'currency_pair');
      const settle = param(movement, 'settle');
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
        from: `Main · ${transferAccountWords(param(movement, 'from'))}${suffix}`,
        to: `Main · ${transferAccountWords(param(movement, 'to'))}${suffix}`,
      };
    }
    case 'subAccountTransfer': {
      const sub = `${subName(String(param(movement, 'sub_account')))} · ${transferAccountWords(param(movement, 'sub_account_type'))}`;
      const into = param(movement, 'direction') === 'to';
      return { ...common, kind: 'mainSub', from: into ? 'Main · spot' : sub, to: into ? sub : 'Main · spot' };
    }
    case 'subToSubTransfer':
      return {
        ...common,
        kind: 'subSub',
        from: `${subName(String(param(movement, 'sub_account_from')))} · ${transferAccountWords(param(movement, 'sub_account_from_type'))}`,
        to: `${subName(String(param(movement, 'sub_account_to')))} · ${transferAccountWords(param(movement, 'sub_account_to_type'))}`,
      };
    default:
      return undefined;
  }
};
