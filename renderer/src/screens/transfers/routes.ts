/**
 * The four kinds of transfer the screen offers, and how a form draft becomes the contract's input.
 * Pure functions, so the rules (what to ask, where funds leave from) are tested without a DOM.
 */
import type { BalanceSource, TransferDetails } from '../../../../shared/contract/transfers';
import { amountProblem, ownTransferNeeds } from '../../../../shared/contract/transfers';
import { parseAmountInput } from '../../../../shared/format/money';

export type OwnAccount = 'spot' | 'margin' | 'futures' | 'delivery' | 'options';
export type SubType = 'spot' | 'futures' | 'delivery' | 'options';
export type SubSubType = 'spot' | 'futures' | 'delivery';
export type Route = 'own' | 'mainToSub' | 'subToMain' | 'subToSub';

export const ROUTE_TEXT: Record<Route, string> = {
  own: 'Between my own accounts',
  mainToSub: 'Main account → sub-account',
  subToMain: 'Sub-account → main account',
  subToSub: 'Sub-account → sub-account',
};

export const ACCOUNT_TEXT: Record<OwnAccount, string> = {
  spot: 'Spot',
  margin: 'Isolated margin',
  futures: 'Perpetual futures',
  delivery: 'Delivery futures',
  options: 'Options',
};

export const OWN_ACCOUNTS: readonly OwnAccount[] = ['spot', 'margin', 'futures', 'delivery', 'options'];
export const SUB_TYPES: readonly SubType[] = ['spot', 'futures', 'delivery', 'options'];
export const SUB_SUB_TYPES: readonly SubSubType[] = ['spot', 'futures', 'delivery'];

export interface TransferDraft {
  readonly route: Route;
  readonly currency: string;
  readonly amount: string;
  readonly from: OwnAccount;
  readonly to: OwnAccount;
  readonly currencyPair: string;
  readonly settle: string;
  /** main↔sub: the sub-account and its account type. */
  readonly subUserId: string;
  readonly subType: SubType;
  /** sub↔sub. */
  readonly fromUserId: string;
  readonly fromType: SubSubType;
  readonly toUserId: string;
  readonly toType: SubSubType;
}

export const EMPTY_DRAFT: TransferDraft = {
  route: 'mainToSub',
  currency: 'USDT',
  amount: '',
  from: 'spot',
  to: 'futures',
  currencyPair: '',
  settle: 'usdt',
  subUserId: '',
  subType: 'spot',
  fromUserId: '',
  fromType: 'spot',
  toUserId: '',
  toType: 'spot',
};

export type DraftProblems = Partial<
  Record<'currency' | 'amount' | 'to' | 'currencyPair' | 'settle' | 'subUserId' | 'fromUserId' | 'toUserId', string>
>;

const CURRENCY = /^[A-Z0-9_]{1,32}$/;
const PAIR = /^[A-Z0-9]+_[A-Z0-9]+$/;

/** Everything wrong with a draft, per field; `available` (when known) bounds the amount. */
export const draftProblems = (draft: TransferDraft, available?: string): DraftProblems => {
  const problems: DraftProblems = {};
  if (!CURRENCY.test(draft.currency)) problems.currency = 'Enter the currency symbol, e.g. USDT.';
  const typed = parseAmountInput(draft.amount);
  const amount = typed.ok ? amountProblem(typed.value, available, draft.currency) : typed.message;
  if (amount) problems.amount = amount;
  switch (draft.route) {
    case 'own': {
      if (draft.from === draft.to) problems.to = 'Choose two different accounts.';
      const needs = ownTransferNeeds(draft.from, draft.to);
      if (needs.currencyPair && !PAIR.test(draft.currencyPair))
        problems.currencyPair = 'Enter the market, e.g. BTC_USDT.';
      if (needs.settle && draft.settle === '') problems.settle = 'Choose the settle currency.';
      else if (needs.settle && draft.currency !== draft.settle.toUpperCase() && draft.currency !== 'POINT') {
        // The spec: a contract account takes its settlement currency (or POINT).
        problems.currency = `Contract accounts settled in ${draft.settle.toUpperCase()} take ${draft.settle.toUpperCase()} or POINT.`;
      }
      if (needs.settle && (draft.from === 'delivery' || draft.to === 'delivery') && draft.settle !== 'usdt') {
        problems.settle = 'Delivery futures settle in USDT.';
      }
      break;
    }
    case 'mainToSub':
    case 'subToMain':
      if (draft.subUserId === '') problems.subUserId = 'Choose a sub-account.';
      break;
    case 'subToSub':
      if (draft.fromUserId === '') problems.fromUserId = 'Choose the sub-account to take funds from.';
      if (draft.toUserId === '') problems.toUserId = 'Choose the sub-account to send funds to.';
      else if (draft.fromUserId === draft.toUserId && draft.fromType === draft.toType) {
        problems.toUserId = 'Choose a different destination.';
      }
      break;
  }
  return problems;
};

/** Where the funds leave from, to show what is available there. */
export const sourceOf = (draft: TransferDraft): BalanceSource | undefined => {
  if (!CURRENCY.test(draft.currency)) return undefined;
  switch (draft.route) {
    case 'own': {
      const needs = ownTransferNeeds(draft.from, draft.to);
      if (draft.from === 'margin' && !PAIR.test(draft.currencyPair)) return undefined;
      return {
        owner: 'main',
        account: draft.from,
        currency: draft.currency,
        ...(needs.currencyPair && PAIR.test(draft.currencyPair) ? { currencyPair: draft.currencyPair } : {}),
        ...(needs.settle && draft.settle ? { settle: draft.settle } : {}),
      };
    }
    case 'mainToSub':
      return { owner: 'main', account: 'spot', currency: draft.currency };
    case 'subToMain':
      return draft.subUserId === ''
        ? undefined
        : {
            owner: Number(draft.subUserId),
            account: draft.subType,
            currency: draft.currency,
            ...(draft.subType === 'futures' || draft.subType === 'delivery'
              ? { settle: draft.currency.toLowerCase() }
              : {}),
          };
    case 'subToSub':
      return draft.fromUserId === ''
        ? undefined
        : {
            owner: Number(draft.fromUserId),
            account: draft.fromType,
            currency: draft.currency,
            ...(draft.fromType === 'futures' || draft.fromType === 'delivery'
              ? { settle: draft.currency.toLowerCase() }
              : {}),
          };
  }
};

/**
 * Whose spot account the money leaves, when it leaves one: 'main', a sub-account's user id, or
 * undefined (another account type, or no sub-account chosen yet). The form lists that account's
 * holdings to pick the currency from.
 */
export const spotHolderOf = (draft: TransferDraft): 'main' | number | undefined => {
  switch (draft.route) {
    case 'own':
      return draft.from === 'spot' ? 'main' : undefined;
    case 'mainToSub':
      return 'main';
    case 'subToMain':
      return draft.subUserId !== '' && draft.subType === 'spot' ? Number(draft.subUserId) : undefined;
    case 'subToSub':
      return draft.fromUserId !== '' && draft.fromType === 'spot' ? Number(draft.fromUserId) : undefined;
  }
};

/** The contract's input for a valid draft, without the confirmation's request key. */
export const toInput = (draft: TransferDraft): TransferDetails => {
  // What was typed ("1,000.5", " .5 ") as the canonical decimal the platform takes.
  const typed = parseAmountInput(draft.amount);
  const amount = typed.ok ? typed.value : draft.amount.trim();
  switch (draft.route) {
    case 'own': {
      const needs = ownTransferNeeds(draft.from, draft.to);
      return {
        kind: 'own',
        currency: draft.currency,
        from: draft.from,
        to: draft.to,
        amount,
        ...(needs.currencyPair ? { currencyPair: draft.currencyPair } : {}),
        ...(needs.settle ? { settle: draft.settle } : {}),
      };
    }
    case 'mainToSub':
    case 'subToMain':
      return {
        kind: 'mainSub',
        direction: draft.route === 'mainToSub' ? 'to' : 'from',
        subUserId: Number(draft.subUserId),
        subAccountType: draft.subType,
        currency: draft.currency,
        amount,
      };
    case 'subToSub':
      return {
        kind: 'subSub',
        fromUserId: Number(draft.fromUserId),
        fromType: draft.fromType,
        toUserId: Number(draft.toUserId),
        toType: draft.toType,
        currency: draft.currency,
        amount,
      };
  }
};

/** "Main · spot → ops_desk (UID 7) · spot" for the review sheet. */
export const describeRoute = (draft: TransferDraft, subName: (uid: string) => string): { from: string; to: string } => {
  switch (draft.route) {
    case 'own': {
      const needs = ownTransferNeeds(draft.from, draft.to);
      const extra = [
        needs.currencyPair ? draft.currencyPair : '',
        needs.settle ? `settle ${draft.settle.toUpperCase()}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const suffix = extra ? ` (${extra})` : '';
      return { from: `Main · ${ACCOUNT_TEXT[draft.from]}${suffix}`, to: `Main · ${ACCOUNT_TEXT[draft.to]}${suffix}` };
    }
    case 'mainToSub':
      return { from: 'Main · Spot', to: `${subName(draft.subUserId)} · ${ACCOUNT_TEXT[draft.subType]}` };
    case 'subToMain':
      return { from: `${subName(draft.subUserId)} · ${ACCOUNT_TEXT[draft.subType]}`, to: 'Main · Spot' };
    case 'subToSub':
      return {
        from: `${subName(draft.fromUserId)} · ${ACCOUNT_TEXT[draft.fromType]}`,
        to: `${subName(draft.toUserId)} · ${ACCOUNT_TEXT[draft.toType]}`,
      };
  }
};
