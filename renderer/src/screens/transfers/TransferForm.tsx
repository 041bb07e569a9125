/**
 * The transfer form: what to move, from where to where. Asks for the pair or settle currency only
 * when the chosen accounts need them, checks the amount (> 0, at most 8 decimals, not more than
 * available) before anything is sent, then shows a review sheet. The result is tracked by
 * TransferResult. Opening the review freezes what it shows under a new request key, sent with every
 * click of "Transfer now": a double click or a retry is the same transfer for main.
 *
 * A react-hook-form form held to the contract's transfer input; its rules read the other fields and
 * what is available at the source, so they are checked again whenever one of those changes
 * (`useRulesAtFields`). A refusal is put on the fields with `placeRefusal`.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import { Controller, type UseFormSetError, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  MainSubTransferInput,
  OwnTransferInput,
  ownTransferNeeds,
  SubSubTransferInput,
  TRANSFER_MAX_DECIMALS,
  type TransferDetails,
  type TransferOutcome,
} from '../../../../shared/contract/transfers';
import { useConfirmation, useSingleFlight } from '../../lib/confirmation';
import { type DeskCallError, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import {
  editFields,
  type FormFields,
  fieldMessage,
  isRefusal,
  type LabelFields,
  placeRefusal,
  useRulesAtFields,
} from '../../lib/formErrors';
import { useNavigation } from '../../lib/navigation';
import { AmountField, Button, ConfirmDialog, FieldError, Notice, Select, type SelectOption, TextField } from '../../ui';
import { HeldCurrencies } from './HeldCurrencies';
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
  spotHolderOf,
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
/** The form's name of a contract field (the form keeps the sub-account's account as `subType`). */
const draftKey = (field: TransferField): Exclude<keyof TransferDraft, 'route'> =>
  field === 'subAccountType' ? 'subType' : field;
/** The form's fields, in the order it asks for them. */
const DRAFT_FIELDS: readonly (keyof TransferDraft)[] = [
  'route',
  'from',
  'to',
  'currencyPair',
  'settle',
  'subUserId',
  'subType',
  'fromUserId',
  'fromType',
  'toUserId',
  'toType',
  'currency',
  'amount',
];
type DraftProblemField = keyof ReturnType<typeof draftProblems>;
/** Shown as soon as they fail (two accounts, the settle currency), as typed, or only after a first attempt. */
const ALWAYS_SHOWN: readonly (keyof TransferDraft)[] = ['to', 'settle'];
const SHOWN_AS_TYPED: readonly (keyof TransferDraft)[] = ['currencyPair', 'toUserId', 'currency', 'amount'];

/** What the person fills in, without the confirmation's request key: the contract's inputs. */
const TransferDetailsSchema = z.discriminatedUnion('kind', [
  z.object(OwnTransferInput.shape).omit({ requestKey: true }),
  z.object(MainSubTransferInput.shape).omit({ requestKey: true }),
  z.object(SubSubTransferInput.shape).omit({ requestKey: true }),
]);
/** The form's draft, read with the screen's rules (`available` bounds the amount), then held to the contract. */
const transferSchema = (available: string | undefined) =>
  z
    .custom<TransferDraft>()
    .superRefine((draft, ctx) => {
      const problems = draftProblems(draft, available);
      for (const field of DRAFT_FIELDS) {
        const message = problems[field as DraftProblemField];
        if (message) ctx.addIssue({ code: 'custom', path: [field], message });
      }
    })
    .transform(toInput)
    .pipe(TransferDetailsSchema);

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
  // The draft the screen reads (which fields to ask, where funds leave from); the form holds the same values.
  const [draft, setDraft] = useState<TransferDraft>(() =>
    handedOver && /^\d+$/.test(handedOver)
      ? { ...EMPTY_DRAFT, route: 'mainToSub', subUserId: handedOver }
      : EMPTY_DRAFT,
  );
  const { confirmation, open, close } = useConfirmation<{
    readonly input: TransferDetails;
    readonly summary: string;
    readonly from: string;
    readonly to: string;
  }>();
  const singleFlight = useSingleFlight();

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
  const spotHolder = spotHolderOf(draft);
  const available = useDeskQuery(
    ['transfers.available', source ?? { owner: 'main', account: 'spot', currency: 'USDT' }],
    {
      enabled: source !== undefined,
    },
  );
  const availableText = source !== undefined ? (available.data?.available ?? undefined) : undefined;

  // Built again only when what is available changes, not on every keystroke.
  const resolver = useMemo(() => zodResolver(transferSchema(availableText)), [availableText]);
  const form = useForm<TransferDraft, unknown, TransferDetails>({
    // Read again every render: the amount is checked against what is available at the source.
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: draft,
  });
  const submitted = form.formState.isSubmitted;
  const { errors } = form.formState;
  /** A change by the person: the draft and the form follow; a refusal at a changed field goes. */
  const set = (patch: Partial<TransferDraft>) => {
    editFields(form, patch);
    setDraft((d) => ({ ...d, ...patch }));
  };
  // Format problems show as the person types; "required" ones only after a first attempt.
  useRulesAtFields(
    form,
    resolver,
    DRAFT_FIELDS,
    (name) => submitted || ALWAYS_SHOWN.includes(name) || (SHOWN_AS_TYPED.includes(name) && draft[name] !== ''),
    [...DRAFT_FIELDS.map((name) => draft[name]), availableText, submitted],
  );
  /** Main's names for the form's fields (the sub-account's account is `subType` here). */
  const setRefusal: UseFormSetError<Record<TransferField, string>> = (name, error, options) =>
    form.setError(draftKey(name as TransferField), error, options);

  const send = useDeskMutation('transfers.send', {
    // The history gets the transfer from the journal's events (the screen applies them); balances are read again.
    invalidates: ['transfers.available', 'subAccounts.balances', 'subAccounts.get'],
  });

  // After an attempt: some field's rule fails (a refusal is not the form's rule).
  const invalid = submitted && DRAFT_FIELDS.some((f) => errors[f] && !isRefusal(errors[f]));
  const needs = ownTransferNeeds(draft.from, draft.to);
  const route = describeRoute(draft, subName);

  const review = form.handleSubmit((input) => {
    const summary = `${formatMoney(input.amount, input.currency)} from ${route.from} to ${route.to}`;
    open({ input, summary, from: route.from, to: route.to });
  });

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
              form.reset({ ...form.getValues(), amount: '' });
              setDraft((d) => ({ ...d, amount: '' }));
            }
          },
          onError: (error) => {
            // Reviewing again makes a new key: this confirmation ends here. What names a field goes
            // to that field; the rest is one banner in the result.
            const left = placeRefusal(error, setRefusal, TRANSFER_FIELDS, TRANSFER_LABELS);
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
      onSubmit={(event) => void review(event)}
    >
      <Controller
        control={form.control}
        name="route"
        render={({ field }) => (
          <Select
            label="Transfer type"
            value={field.value}
            onChange={(value) => set({ route: value })}
            options={ROUTES.map((r) => ({ value: r, label: ROUTE_TEXT[r] }))}
          />
        )}
      />

      {draft.route === 'own' ? (
        <div className="form-row">
          <Controller
            control={form.control}
            name="from"
            render={({ field, fieldState }) => (
              <Select
                label="From account"
                value={field.value}
                onChange={(value) => set({ from: value })}
                options={OWN_ACCOUNTS.map((a) => ({ value: a, label: ACCOUNT_TEXT[a] }))}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
              />
            )}
          />
          <Controller
            control={form.control}
            name="to"
            render={({ field, fieldState }) => (
              <Select
                label="To account"
                value={field.value}
                onChange={(value) => set({ to: value })}
                options={OWN_ACCOUNTS.map((a) => ({ value: a, label: ACCOUNT_TEXT[a] }))}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
              />
            )}
          />
        </div>
      ) : null}
      {draft.route === 'own' && needs.currencyPair ? (
        <Controller
          control={form.control}
          name="currencyPair"
          render={({ field, fieldState }) => (
            <TextField
              label="Margin market (pair)"
              value={field.value}
              onChange={(value) => set({ currencyPair: value.toUpperCase() })}
              placeholder="BTC_USDT"
              hint="Isolated margin keeps funds per market."
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
            />
          )}
        />
      ) : null}
      {draft.route === 'own' && needs.settle ? (
        <Controller
          control={form.control}
          name="settle"
          render={({ field, fieldState }) => (
            <Select
              label="Settle currency"
              value={field.value}
              onChange={(value) => set({ settle: value })}
              options={[
                { value: 'usdt', label: 'USDT-settled' },
                { value: 'btc', label: 'BTC-settled' },
              ]}
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
            />
          )}
        />
      ) : null}

      {draft.route === 'mainToSub' || draft.route === 'subToMain' ? (
        <div className="form-row">
          <Controller
            control={form.control}
            name="subUserId"
            render={({ field, fieldState }) => (
              <Select
                label="Sub-account"
                value={field.value}
                onChange={(value) => set({ subUserId: value })}
                options={subOptions}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
              />
            )}
          />
          <Controller
            control={form.control}
            name="subType"
            render={({ field, fieldState }) => (
              <Select
                label="Sub-account’s account"
                value={field.value}
                onChange={(value) => set({ subType: value })}
                options={SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
              />
            )}
          />
        </div>
      ) : null}
      {draft.route === 'mainToSub' || draft.route === 'subToMain' ? (
        <p className="muted small">The main account’s side is always its spot account.</p>
      ) : null}
      {frozenChosen ? (
        <Notice tone="warn" data-testid="transfer-frozen-warning">
          {frozenChosen} is frozen: the platform refuses transfers to and from it until it is unfrozen (Sub-accounts →
          Unfreeze).
        </Notice>
      ) : null}

      {draft.route === 'subToSub' ? (
        <>
          <div className="form-row">
            <Controller
              control={form.control}
              name="fromUserId"
              render={({ field, fieldState }) => (
                <Select
                  label="From sub-account"
                  value={field.value}
                  onChange={(value) => set({ fromUserId: value })}
                  options={subOptions}
                  error={fieldMessage(fieldState.error)}
                  invalid={fieldState.invalid}
                />
              )}
            />
            <Controller
              control={form.control}
              name="fromType"
              render={({ field, fieldState }) => (
                <Select
                  label="From account"
                  value={field.value}
                  onChange={(value) => set({ fromType: value })}
                  options={SUB_SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
                  error={fieldMessage(fieldState.error)}
                  invalid={fieldState.invalid}
                />
              )}
            />
          </div>
          <div className="form-row">
            <Controller
              control={form.control}
              name="toUserId"
              render={({ field, fieldState }) => (
                <Select
                  label="To sub-account"
                  value={field.value}
                  onChange={(value) => set({ toUserId: value })}
                  options={subOptions}
                  error={fieldMessage(fieldState.error)}
                  invalid={fieldState.invalid}
                />
              )}
            />
            <Controller
              control={form.control}
              name="toType"
              render={({ field, fieldState }) => (
                <Select
                  label="To account"
                  value={field.value}
                  onChange={(value) => set({ toType: value })}
                  options={SUB_SUB_TYPES.map((t) => ({ value: t, label: ACCOUNT_TEXT[t] }))}
                  error={fieldMessage(fieldState.error)}
                  invalid={fieldState.invalid}
                />
              )}
            />
          </div>
        </>
      ) : null}

      {spotHolder !== undefined ? (
        <HeldCurrencies holder={spotHolder} chosen={draft.currency} onPick={(currency) => set({ currency })} />
      ) : null}
      <div className="form-row">
        <Controller
          control={form.control}
          name="currency"
          render={({ field, fieldState }) => (
            <TextField
              label="Currency"
              value={field.value}
              onChange={(value) => set({ currency: value.toUpperCase().trim() })}
              maxLength={32}
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
            />
          )}
        />
        <Controller
          control={form.control}
          name="amount"
          render={({ field, fieldState }) => (
            <AmountField
              label="Amount"
              value={field.value}
              onChange={(value) => set({ amount: value })}
              validate={false}
              currency={draft.currency}
              available={availableText}
              onUseAll={setMax}
              hintTestId="transfer-available"
              hint={
                source === undefined || availableText !== undefined
                  ? `At most ${TRANSFER_MAX_DECIMALS} decimals.`
                  : available.isPending
                    ? 'Checking what is available…'
                    : available.error
                      ? 'Could not read the available balance; the platform will check it.'
                      : (available.data?.note ?? 'The platform does not report what is available here.')
              }
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
            />
          )}
        />
      </div>

      <FieldError
        message={invalid ? 'Fix the marked fields; nothing was sent.' : undefined}
        testId="transfer-invalid"
      />
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
