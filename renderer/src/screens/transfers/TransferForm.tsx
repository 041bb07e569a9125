/**
 * The transfer form: what to move, from where to where. Asks for the pair or settle currency only
 * when the chosen accounts need them, checks the amount (> 0, at most 8 decimals, not more than
 * available) before anything is sent, then shows a review sheet. The result is tracked by
 * TransferResult. Opening the review freezes what it shows under a new request key, sent with every
 * click of "Transfer now": a double click or a retry is the same transfer for main.
 */
import Decimal from 'decimal.js';
import { useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import {
  ownTransferNeeds,
  TRANSFER_MAX_DECIMALS,
  type TransferDetails,
  type TransferOutcome,
} from '../../../../shared/contract/transfers';
import { type DeskCallError, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { type FormFields, type LabelFields, placeRefusal } from '../../lib/formErrors';
import { useNavigation } from '../../lib/navigation';
import { Button, ConfirmDialog, Select, type SelectOption, TextField } from '../../ui';
import { useConfirmation, useSingleFlight } from '../withdrawals/confirmation';
import {
  ACCOUNT_TEXT,
  describeRoute,
  draftProblems,
  EMPTY_DRAFT,
  OWN_ACCOUNTS,
  ROUTE_TEXT,
  type Route,
  SUB_SUB_TYPES,
  SUB_TYPES,
  sourceOf,
  type TransferDraft,
  toInput,
} from './routes';

/** The contract's transfer fields (every route's) and their labels on this form. */
type TransferField =
  | 'currency'
  | 'amount'
  | 'from'
  | 'to'
  | 'currencyPair'
  | 'settle'
  | 'subUserId'
  | 'subAccountType'
  | 'fromUserId'
  | 'fromType'
  | 'toUserId'
  | 'toType';
const TRANSFER_FIELDS: FormFields<Record<TransferField, string>> = {
  currency: 'Currency',
  amount: 'Amount',
  from: 'From account',
  to: 'To account',
  currencyPair: 'Margin market (pair)',
  settle: 'Settle currency',
  subUserId: 'Sub-account',
  subAccountType: 'Sub-account’s account',
  fromUserId: 'From sub-account',
  fromType: 'From account',
  toUserId: 'To sub-account',
  toType: 'To account',
};
/** Platform refusals about one field of the form: one banner, that field highlighted. */
const TRANSFER_LABELS: LabelFields<Record<TransferField, string>> = {
  BALANCE_NOT_ENOUGH: 'amount',
  INVALID_PRECISION: 'amount',
  AMOUNT_TOO_LITTLE: 'amount',
  AMOUNT_TOO_MUCH: 'amount',
  INVALID_CURRENCY: 'currency',
  SUB_ACCOUNT_NOT_FOUND: 'subUserId',
  SUB_ACCOUNT_LOCKED: 'subUserId',
};
/** The draft's name of a contract field (the form keeps the sub-account's account as `subType`). */
const draftKey = (field: string): string => (field === 'subAccountType' ? 'subType' : field);

export interface TransferFormProps {
  /** Called with every answer (done / checking / failed) or a refusal, for the result panel. */
  readonly onResult: (result: {
    readonly outcome?: TransferOutcome;
    readonly error?: DeskCallError;
    readonly summary: string;
  }) => void;
}

const ROUTES: readonly Route[] = ['own', 'mainToSub', 'subToMain', 'subToSub'];

export const TransferForm = ({ onResult }: TransferFormProps) => {
  // Another screen may hand over a sub-account (Sub-accounts → "Transfer funds"): params.subUserId.
  const handedOver = useNavigation((state) => state.params.subUserId);
  const [draft, setDraft] = useState<TransferDraft>(() =>
    handedOver && /^\d+$/.test(handedOver)
      ? { ...EMPTY_DRAFT, route: 'mainToSub', subUserId: handedOver }
      : EMPTY_DRAFT,
  );
  const [attempted, setAttempted] = useState(false);
  const { confirmation, open, close } = useConfirmation<{
    readonly input: TransferDetails;
    readonly summary: string;
    readonly from: string;
    readonly to: string;
  }>();
  const singleFlight = useSingleFlight();
  // Main's or the platform's refusal of the last transfer, on the fields it names (until edited):
  // the message at the field, or '' for a field a banner names (highlighted only).
  const [refusedAt, setRefusedAt] = useState<Record<string, string>>({});
  const set = (patch: Partial<TransferDraft>) => {
    setRefusedAt((r) => Object.fromEntries(Object.entries(r).filter(([f]) => !(f in patch))));
    setDraft((d) => ({ ...d, ...patch }));
  };
  /** Puts a refusal on the form's fields; returns what is left for the one banner (or undefined). */
  const placeOnFields = (error: unknown): unknown => {
    const placed: Record<string, string> = {};
    const setError = ((name: string, e: { message?: string }) => {
      placed[draftKey(name)] = e.message ?? '';
    }) as unknown as UseFormSetError<FieldValues>;
    const left = placeRefusal(error, setError, TRANSFER_FIELDS, TRANSFER_LABELS);
    setRefusedAt(placed);
    return left;
  };
  /** The field's message, once: its own rule when shown, else main's refusal of it. */
  const refusal = (field: string): string | undefined => refusedAt[field] || undefined;
  const refused = (field: string): boolean => refusedAt[field] !== undefined;

  const subs = useDeskQuery(['subAccounts.list', {}]);
  const accounts = subs.data?.accounts ?? [];
  const subOptions: SelectOption<string>[] = [
    { value: '', label: accounts.length === 0 ? 'No sub-accounts' : 'Choose…' },
    ...accounts.map((a) => ({
      value: String(a.userId),
      label: `${a.loginName} (UID ${a.userId})${a.state === 'frozen' ? ' — frozen' : ''}`,
    })),
  ];
  const subName = (uid: string) => {
    const account = accounts.find((a) => String(a.userId) === uid);
    return account ? `${account.loginName} (UID ${uid})` : `Sub-account ${uid}`;
  };

  const chosenSubs =
    draft.route === 'subToSub' ? [draft.fromUserId, draft.toUserId] : draft.route === 'own' ? [] : [draft.subUserId];
  const frozenChosen = accounts
    .filter((a) => a.state === 'frozen' && chosenSubs.includes(String(a.userId)))
    .map((a) => a.loginName)
    .join(' and ');

  const source = sourceOf(draft);
  const available = useDeskQuery(
    ['transfers.available', source ?? { owner: 'main', account: 'spot', currency: 'USDT' }],
    {
      enabled: source !== undefined,
    },
  );
  const availableText = source !== undefined ? (available.data?.available ?? undefined) : undefined;

  const send = useDeskMutation('transfers.send', {
    // The history gets the transfer from the journal's events (the screen applies them); balances are read again.
    invalidates: ['transfers.available', 'subAccounts.balances', 'subAccounts.get'],
  });

  const problems = draftProblems(draft, availableText);
  const valid = Object.keys(problems).length === 0;
  // Format problems show as the person types; "required" ones only after a first attempt.
  const show = (field: keyof typeof problems, typed: boolean) => (attempted || typed ? problems[field] : undefined);
  const needs = ownTransferNeeds(draft.from, draft.to);
  const route = describeRoute(draft, subName);
  const input = valid ? toInput(draft) : undefined;
  const summary = `${input ? formatMoney(input.amount, input.currency) : draft.currency} from ${route.from} to ${route.to}`;

  const review = () => {
    setAttempted(true);
    if (input) open({ input, summary, from: route.from, to: route.to });
  };

  const confirm = () => {
    if (confirmation === undefined) return;
    const { details, requestKey } = confirmation;
    singleFlight(requestKey, (done) =>
      send.mutate(
        { ...details.input, requestKey },
        {
          onSettled: done,
          onSuccess: (outcome) => {
            onResult({ outcome, summary: details.summary });
            close();
            if (outcome.state !== 'failed') {
              setDraft((d) => ({ ...d, amount: '' }));
              setAttempted(false);
            }
          },
          onError: (error) => {
            // Reviewing again makes a new key: this confirmation ends here. What names a field goes
            // to that field; the rest is one banner in the result.
            const left = placeOnFields(error);
            onResult({ ...(left !== undefined ? { error: left as DeskCallError } : {}), summary: details.summary });
            close();
          },
        },
      ),
    );
  };

  const setMax = () => {
    if (availableText === undefined) return;
    set({ amount: new Decimal(availableText).toDecimalPlaces(TRANSFER_MAX_DECIMALS, Decimal.ROUND_DOWN).toFixed() });
  };

  return (
    <form
      noValidate
      className="stack transfer-form"
      aria-label="New transfer"
      data-testid="transfer-form"
      onSubmit={(event) => {
        event.preventDefault();
        review();
      }}
    >
      <Select
        label="Transfer type"
        value={draft.route}
        onChange={(value) => set({ route: value })}
        options={ROUTES.map((r) => ({ value: r, label: ROUTE_TEXT[r] }))}
      />

      {draft.route === 'own' ? (
        <div className="form-row">
          <Select
            label="From account"
            value={draft.from}
            onChange={(value) => set({ from: value })}
            options={OWN_ACCOUNTS.map((a) => ({ value: a, label: ACCOUNT_TEXT[a] }))}
          />
          <Select
            label="To account"
            value={draft.to}
            onChange={(value) => set({ to: value })}
            options={OWN_ACCOUNTS.map((a) => ({ value: a, label: ACCOUNT_TEXT[a] }))}
            error={problems.to ?? refusal('to')}
            invalid={refused('to')}
          />
        </div>
      ) : null}
      {draft.route === 'own' && needs.currencyPair ? (
        <TextField
          label="Margin market (pair)"
          value={draft.currencyPair}
          onChange={(value) => set({ currencyPair: value.toUpperCase() })}
          error={show('currencyPair', draft.currencyPair !== '') ?? refusal('currencyPair')}
          invalid={refused('currencyPair')}
          placeholder="BTC_USDT"
          hint="Isolated margin keeps funds per market."
        />
      ) : null}
      {draft.route === 'own' && needs.settle ? (
        <Select
          label="Settle currency"
          value={draft.settle}
          onChange={(value) => set({ settle: value })}
          options={[
            { value: 'usdt', label: 'USDT-settled' },
            { value: 'btc', label: 'BTC-settled' },
          ]}
          error={problems.settle ?? refusal('settle')}
          invalid={refused('settle')}
        />
      ) : null}

      {draft.route === 'mainToSub' || draft.route === 'subToMain' ? (
        <div className="form-row">
          <Select
            label="Sub-account"
            value={draft.subUserId}
            onChange={(value) => set({ subUserId: value })}
            options={subOptions}
            error={show('subUserId', false) ?? refusal('subUserId')}
            invalid={refused('subUserId')}
          />
          <Select
            label="Sub-account’s account"
            value={draft.subType}
            onChange={(value) => set({ subType: value })}
            options={SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
          />
        </div>
      ) : null}
      {draft.route === 'mainToSub' || draft.route === 'subToMain' ? (
        <p className="muted small">The main account’s side is always its spot account.</p>
      ) : null}
      {frozenChosen ? (
        <p className="notice notice-warn" data-testid="transfer-frozen-warning">
          {frozenChosen} is frozen: the platform refuses transfers to and from it until it is unfrozen (Sub-accounts →
          Unfreeze).
        </p>
      ) : null}

      {draft.route === 'subToSub' ? (
        <>
          <div className="form-row">
            <Select
              label="From sub-account"
              value={draft.fromUserId}
              onChange={(value) => set({ fromUserId: value })}
              options={subOptions}
              error={show('fromUserId', false) ?? refusal('fromUserId')}
              invalid={refused('fromUserId')}
            />
            <Select
              label="From account"
              value={draft.fromType}
              onChange={(value) => set({ fromType: value })}
              options={SUB_SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
            />
          </div>
          <div className="form-row">
            <Select
              label="To sub-account"
              value={draft.toUserId}
              onChange={(value) => set({ toUserId: value })}
              options={subOptions}
              error={show('toUserId', draft.toUserId !== '') ?? refusal('toUserId')}
              invalid={refused('toUserId')}
            />
            <Select
              label="To account"
              value={draft.toType}
              onChange={(value) => set({ toType: value })}
              options={SUB_SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
            />
          </div>
        </>
      ) : null}

      <div className="form-row">
        <TextField
          label="Currency"
          value={draft.currency}
          onChange={(value) => set({ currency: value.toUpperCase().trim() })}
          error={show('currency', draft.currency !== '') ?? refusal('currency')}
          invalid={refused('currency')}
          maxLength={32}
        />
        <TextField
          label="Amount"
          value={draft.amount}
          onChange={(value) => set({ amount: value })}
          inputMode="decimal"
          error={show('amount', draft.amount !== '') ?? refusal('amount')}
          invalid={refused('amount')}
          suffix={draft.currency}
          hint={
            <span data-testid="transfer-available">
              {source === undefined
                ? `At most ${TRANSFER_MAX_DECIMALS} decimals.`
                : available.isPending
                  ? 'Checking what is available…'
                  : available.error
                    ? 'Could not read the available balance; the platform will check it.'
                    : availableText === undefined
                      ? (available.data?.note ?? 'The platform does not report what is available here.')
                      : `Available: ${formatMoney(availableText, draft.currency)} · at most ${TRANSFER_MAX_DECIMALS} decimals`}
              {availableText !== undefined ? (
                <>
                  {' '}
                  <button type="button" className="link-button" onClick={setMax}>
                    Use all
                  </button>
                </>
              ) : null}
            </span>
          }
        />
      </div>

      {attempted && !valid ? (
        <p className="field-error" role="alert" data-testid="transfer-invalid">
          Fix the marked fields; nothing was sent.
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="primary" busy={send.isPending} data-testid="transfer-review">
          Review transfer
        </Button>
      </div>

      <ConfirmDialog
        open={confirmation !== undefined}
        title="Review the transfer"
        confirmLabel="Transfer now"
        busy={send.isPending}
        testId="transfer-confirm"
        onCancel={close}
        onConfirm={confirm}
      >
        <dl className="facts">
          <dt>Amount</dt>
          <dd data-testid="review-amount">
            {confirmation ? formatMoney(confirmation.details.input.amount, confirmation.details.input.currency) : null}
          </dd>
          <dt>From</dt>
          <dd>{confirmation?.details.from}</dd>
          <dt>To</dt>
          <dd>{confirmation?.details.to}</dd>
        </dl>
        <p className="muted small">Transfers between accounts are free and usually arrive at once.</p>
      </ConfirmDialog>
    </form>
  );
};
