/**
 * New withdrawal: currency → network → saved address → memo → amount, with the fee, limits and the
 * net amount shown before anything is sent. Every rule is checked here first (and again in main);
 * "Review" opens the review sheet, which is the only place that sends.
 *
 * A react-hook-form form held to the contract's `WithdrawDetails`; its rules read the chosen
 * currency's rules, network, balance and saved entry, so they are checked again whenever one of
 * those changes (`useRulesAtFields`). A refusal is put on the fields with `placeRefusal`.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Decimal from 'decimal.js';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { create } from 'zustand';
import {
  type CurrencyChainInfo,
  destinationKey,
  type SavedAddress,
  WithdrawDetails,
  type WithdrawResult,
  type WithdrawRules,
} from '../../../../shared/contract/funding';
import { savedAddressRefusal } from '../../../../shared/platform/savedAddresses';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import {
  editFields,
  type FormFields,
  fieldMessage,
  isRefusal,
  type LabelFields,
  placeRefusal,
  useRulesAtFields,
} from '../../lib/formErrors';
import { Badge, Button, EmptyState, ErrorNotice, Loading, LongId, Select, TextField } from '../../ui';
import { FeeEstimateNote } from './FeeEstimateNote';
import { firstWithdrawalTo, ReviewSheet } from './ReviewSheet';
import { amountProblem, quote } from './withdrawMath';

/** The form's values: what the person chose and typed, as typed. */
type WithdrawValues = { currency: string; chain: string; address: string; memo: string; amount: string };

interface Draft extends Readonly<WithdrawValues> {
  set(patch: Partial<WithdrawValues>): void;
  reset(): void;
}

const EMPTY: WithdrawValues = { currency: '', chain: '', address: '', memo: '', amount: '' };

/** The draft survives switching tabs/screens; it is cleared once the withdrawal is sent. */
export const useWithdrawDraft = create<Draft>((set) => ({
  ...EMPTY,
  set: (patch) => set(patch),
  reset: () => set(EMPTY),
}));

const chainProblem = (chain: CurrencyChainInfo): string | undefined => {
  if (chain.disabled) return 'This network is disabled by the platform.';
  if (chain.withdrawDisabled) return 'Withdrawals on this network are suspended by the platform for now.';
  return undefined;
};

const savedKey = (a: SavedAddress) => destinationKey(a.chain, a.address, a.tag);

type WithdrawField = keyof WithdrawValues;
/** The fields in the order the form asks for them: the first with a problem is where to look. */
const WITHDRAW_ORDER: readonly WithdrawField[] = ['currency', 'chain', 'address', 'memo', 'amount'];
const WITHDRAW_FIELDS: FormFields<WithdrawValues> = {
  currency: 'Currency',
  chain: 'Network',
  address: 'Destination',
  memo: 'Memo / tag',
  amount: 'Amount',
};
/** Platform refusals about one field of the form: one banner, that field highlighted. */
const WITHDRAW_LABELS: LabelFields<WithdrawValues> = {
  BALANCE_NOT_ENOUGH: 'amount',
  WITHDRAWAL_OVER_LIMIT: 'amount',
  INVALID_PRECISION: 'amount',
  AMOUNT_TOO_LITTLE: 'amount',
  AMOUNT_TOO_MUCH: 'amount',
  ADDRESS_NOT_USED: 'address',
  INVALID_CURRENCY: 'currency',
};

/** What the rules read besides the values: the chosen currency's rules, network and balance, the saved entry's refusal. */
interface WithdrawReads {
  readonly rules: WithdrawRules | undefined;
  readonly chain: CurrencyChainInfo | undefined;
  readonly available: string | undefined;
  readonly refused: string | undefined;
}

/** Every rule of the form, per field. */
const withdrawProblems = (v: WithdrawValues, r: WithdrawReads): Partial<Record<WithdrawField, string>> => {
  // What was typed ("1,000.5", ".5", pasted spaces) read once; the rules see the canonical value.
  const typed = parseAmountInput(v.amount);
  const { rules, chain, available } = r;
  return {
    currency: v.currency === '' ? 'Choose a currency.' : undefined,
    chain: v.chain === '' ? 'Choose a network.' : chain && chainProblem(chain) ? chainProblem(chain) : undefined,
    address: v.address === '' ? 'Choose a saved address.' : r.refused,
    memo:
      chain?.usesMemo && v.memo.trim() === ''
        ? `${chain.chain} needs a memo/tag: without it the receiving platform cannot credit the funds.`
        : v.memo.length > 128
          ? 'The memo is too long.'
          : undefined,
    amount:
      rules && chain
        ? typed.ok
          ? amountProblem({ amount: typed.value, rules, chain, available })
          : typed.message
        : undefined,
  };
};

/** The form's strings, read with the screen's rules, then held to the contract's `WithdrawDetails`. */
const withdrawSchema = (reads: WithdrawReads) =>
  z
    .custom<WithdrawValues>()
    .superRefine((values, ctx) => {
      const problems = withdrawProblems(values, reads);
      for (const field of WITHDRAW_ORDER) {
        const message = problems[field];
        if (message) ctx.addIssue({ code: 'custom', path: [field], message });
      }
    })
    .transform((values) => {
      const typed = parseAmountInput(values.amount);
      return {
        currency: values.currency,
        chain: values.chain,
        address: values.address,
        amount: typed.ok ? typed.value : values.amount,
        ...(reads.chain?.usesMemo && values.memo.trim() !== '' ? { memo: values.memo.trim() } : {}),
      };
    })
    .pipe(WithdrawDetails);

export function WithdrawForm({ onSent }: { readonly onSent: (result: WithdrawResult) => void }) {
  // The draft the screen reads (queries, fee, dependent choices); the form holds the same values.
  const draft = useWithdrawDraft();
  // What "Review" checked, shown in the review sheet until it closes.
  const [reviewing, setReviewing] = useState<WithdrawDetails | undefined>();
  // The last withdrawal queued for an approver (main's words), until another is reviewed.
  const [queued, setQueued] = useState<string | undefined>();

  const rulesQuery = useDeskQuery(['funding.withdrawRules', {}], { staleTime: 60_000 });
  const spotQuery = useDeskQuery(['balances.spot', {}], { staleTime: 10_000 });
  const chainsQuery = useDeskQuery(['funding.chains', { currency: draft.currency }], {
    enabled: draft.currency !== '',
    staleTime: 60_000,
  });
  const addressesQuery = useDeskQuery(['funding.savedAddresses', { currency: draft.currency, chain: draft.chain }], {
    enabled: draft.currency !== '' && draft.chain !== '',
  });

  const rules = rulesQuery.data?.find((r) => r.currency === draft.currency);
  const chain = chainsQuery.data?.find((c) => c.chain === draft.chain);
  // The entry whose (chain, address, memo) is the draft's: with an edited memo that matches none,
  // no entry is chosen and the destination counts as new.
  const draftDestination = destinationKey(draft.chain, draft.address, draft.memo);
  const saved = addressesQuery.data?.find((a) => savedKey(a) === draftDestination);
  const available = spotQuery.data?.find((b) => b.currency === draft.currency)?.available;
  // A saved address the platform will not accept through the API (not verified, never used): it
  // cannot be reviewed; the reason shows at the field at once, not after a click.
  const refused = saved ? savedAddressRefusal(saved) : undefined;

  const form = useForm<WithdrawValues, unknown, WithdrawDetails>({
    // Read again every render: the rules read the chosen currency's rules, network, balance and saved entry.
    resolver: zodResolver(withdrawSchema({ rules, chain, available, refused })),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      currency: draft.currency,
      chain: draft.chain,
      address: draft.address,
      memo: draft.memo,
      amount: draft.amount,
    },
  });
  const submitted = form.formState.isSubmitted;
  const { errors } = form.formState;
  /** A change by the person: the draft and the form follow; a refusal at a changed field goes. */
  const edit = (patch: Partial<WithdrawValues>) => {
    editFields(form, patch);
    draft.set(patch);
  };
  // The draft changed from outside (Balances → "Withdraw" hands over a currency): the form follows.
  useEffect(() => {
    for (const name of WITHDRAW_ORDER) {
      if (form.getValues(name) !== draft[name]) form.setValue(name, draft[name]);
    }
  }, [draft, form]);
  // "Required" only after a first attempt; what is chosen or typed is checked at once (an amount or
  // memo as it is typed, a refused saved address when it is chosen).
  useRulesAtFields(
    form,
    WITHDRAW_ORDER,
    (name) => submitted || ((name === 'address' || name === 'memo' || name === 'amount') && draft[name] !== ''),
    [draft.currency, draft.chain, draft.address, draft.memo, draft.amount, rules, chain, available, refused, submitted],
  );
  const onRefused = (error: unknown): unknown => {
    const left = placeRefusal(error, form.setError, WITHDRAW_FIELDS, WITHDRAW_LABELS);
    // Everything went to a field: back to the form, where it shows.
    if (left === undefined) setReviewing(undefined);
    return left;
  };
  // A refusal highlights its field (the destination's group); the rules' messages only show under it.
  const highlighted = (field: WithdrawField) => isRefusal(errors[field]);

  const currencyOptions = useMemo(() => {
    const list = [...(rulesQuery.data ?? [])].sort((a, b) => a.currency.localeCompare(b.currency));
    return [{ value: '', label: 'Choose a currency' }, ...list.map((r) => ({ value: r.currency, label: r.currency }))];
  }, [rulesQuery.data]);

  // What was typed ("1,000.5", ".5", pasted spaces) read once; the fee and the net see the canonical value.
  const typed = parseAmountInput(draft.amount);
  const amount = typed.ok ? typed.value : '';
  const amountOk = !withdrawProblems(draft, { rules, chain, available, refused }).amount;
  // After an attempt: the first field whose rule fails (a refusal is not the form's rule).
  const firstProblem = submitted ? WITHDRAW_ORDER.find((f) => errors[f] && !isRefusal(errors[f])) : undefined;
  // Never sent to before (the review's "first withdrawal to this address"): offer a test amount first.
  const firstTime = firstWithdrawalTo(saved);
  const testAmount =
    rules?.minAmount && new Decimal(rules.minAmount).gt(0) ? new Decimal(rules.minAmount).toFixed() : undefined;
  const q = rules && chain && amountOk ? quote(rules, chain.chain, amount, chain.decimals) : undefined;

  if (rulesQuery.isPending) return <Loading label="Loading currencies…" />;
  if (rulesQuery.isError) return <ErrorNotice error={rulesQuery.error} onRetry={() => void rulesQuery.refetch()} />;

  return (
    <form
      className="withdraw-form stack"
      aria-label="New withdrawal"
      onSubmit={form.handleSubmit((details) => {
        setQueued(undefined);
        setReviewing(details);
      })}
    >
      <Controller
        control={form.control}
        name="currency"
        render={({ field, fieldState }) => (
          <Select
            label="Currency"
            value={field.value}
            options={currencyOptions}
            onChange={(currency) => edit({ currency, chain: '', address: '', memo: '', amount: '' })}
            error={fieldMessage(fieldState.error)}
            invalid={fieldState.invalid}
          />
        )}
      />

      {draft.currency !== '' ? (
        <fieldset className="field-group">
          <legend>Network</legend>
          {chainsQuery.isPending ? <Loading inline label="Loading networks…" /> : null}
          {chainsQuery.isError ? (
            <ErrorNotice error={chainsQuery.error} onRetry={() => void chainsQuery.refetch()} />
          ) : null}
          {chainsQuery.data?.length === 0 ? (
            <EmptyState title="No network available">
              The platform offers no withdrawal network for {draft.currency}.
            </EmptyState>
          ) : null}
          <div className="choice-list" role="radiogroup" aria-label="Network">
            {chainsQuery.data?.map((c) => {
              const why = chainProblem(c);
              return (
                <label
                  key={c.chain}
                  className={`choice${why ? ' choice-disabled' : ''}`}
                  data-testid={`chain-${c.chain}`}
                >
                  <input
                    type="radio"
                    name="withdraw-chain"
                    value={c.chain}
                    checked={draft.chain === c.chain}
                    disabled={why !== undefined}
                    onChange={() => edit({ chain: c.chain, address: '', memo: '' })}
                  />
                  <span className="choice-title">
                    {c.chain} {c.nameEn && c.nameEn !== c.chain ? <span className="muted">({c.nameEn})</span> : null}
                  </span>
                  {c.usesMemo ? <Badge tone="warn">Memo required</Badge> : null}
                  {why ? <span className="choice-note">{why}</span> : null}
                </label>
              );
            })}
          </div>
          {fieldMessage(errors.chain) ? (
            <div className="field-error" role="alert">
              {fieldMessage(errors.chain)}
            </div>
          ) : null}
        </fieldset>
      ) : null}

      {draft.chain !== '' ? (
        <fieldset className={`field-group${highlighted('address') ? ' field-invalid' : ''}`}>
          <legend>Destination (saved address)</legend>
          <p className="field-hint" data-testid="saved-address-explainer">
            Through the API the platform only sends to addresses in your address book on its website that are verified
            or were used there before. To send somewhere new, save the address on the website first (it can take up to
            24 hours to become usable through the API).
          </p>
          {addressesQuery.isPending ? <Loading inline label="Loading saved addresses…" /> : null}
          {addressesQuery.isError ? (
            <ErrorNotice error={addressesQuery.error} onRetry={() => void addressesQuery.refetch()} />
          ) : null}
          {addressesQuery.data?.length === 0 ? (
            <EmptyState title={`No saved ${draft.currency} address on ${draft.chain}`}>
              Add one in the platform's address book, then come back.
            </EmptyState>
          ) : null}
          <div
            className="choice-list"
            role="radiogroup"
            aria-label="Saved address"
            aria-invalid={highlighted('address') ? true : undefined}
          >
            {addressesQuery.data?.map((a) => {
              const why = savedAddressRefusal(a);
              return (
                <label
                  key={savedKey(a)}
                  className={`choice choice-address${why ? ' choice-refused' : ''}`}
                  data-testid={`saved-address-${a.address}`}
                  data-refused={why ? 'true' : undefined}
                >
                  <input
                    type="radio"
                    name="withdraw-address"
                    value={savedKey(a)}
                    checked={savedKey(a) === draftDestination}
                    onChange={() => edit({ address: a.address, memo: a.tag ?? '' })}
                  />
                  <span className="choice-title">{a.name || 'Unnamed address'}</span>
                  <LongId value={a.address} />
                  {a.tag ? <span className="muted">Memo {a.tag}</span> : null}
                  {a.verified ? (
                    <Badge tone="good">Verified</Badge>
                  ) : (
                    <Badge tone={why ? 'bad' : 'warn'}>{why ? 'Not verified — cannot be used' : 'Not verified'}</Badge>
                  )}
                  {why ? (
                    <span className="choice-note saved-address-refused">{why}</span>
                  ) : !a.verified ? (
                    <span className="choice-note">
                      Not verified, but used before: the platform accepts addresses a withdrawal already went to.
                    </span>
                  ) : null}
                  {a.previousWithdrawals === 0 ? (
                    <Badge tone="info">Not used before</Badge>
                  ) : (
                    <Badge>Used {a.previousWithdrawals}×</Badge>
                  )}
                </label>
              );
            })}
          </div>
          {fieldMessage(errors.address) ? (
            <div className="field-error" role="alert" data-testid="saved-address-error">
              {fieldMessage(errors.address)}
            </div>
          ) : null}
        </fieldset>
      ) : null}

      {chain?.usesMemo ? (
        <div className="notice notice-warn" role="note" data-testid="memo-warning">
          <strong>Memo required on {chain.chain}.</strong> Funds sent without the right memo/tag can be lost.
        </div>
      ) : null}
      {draft.address !== '' && chain?.usesMemo ? (
        <Controller
          control={form.control}
          name="memo"
          render={({ field, fieldState }) => (
            <TextField
              label="Memo / tag"
              value={field.value}
              onChange={(memo) => edit({ memo })}
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
              hint="The receiving platform uses it to credit the right account."
            />
          )}
        />
      ) : null}

      {draft.address !== '' && rules && chain ? (
        <>
          <Controller
            control={form.control}
            name="amount"
            render={({ field, fieldState }) => (
              <TextField
                label="Amount"
                value={field.value}
                onChange={(typedAmount) => edit({ amount: typedAmount })}
                inputMode="decimal"
                suffix={draft.currency}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
                hint={available !== undefined ? <>Available: {formatMoney(available, draft.currency)}</> : undefined}
              />
            )}
          />
          {firstTime ? (
            <div className="notice" role="note" data-testid="test-amount-first">
              <strong>First withdrawal to this address.</strong> Always send a small amount first: one fee buys the
              certainty that the address, network and memo are right before the full amount is at risk. The button only
              fills in the amount; you still review and confirm it.
              {testAmount ? (
                <>
                  {' '}
                  <Button size="sm" onClick={() => edit({ amount: testAmount })} data-testid="test-amount-fill">
                    Send a small test amount first ({formatMoney(testAmount, draft.currency)})
                  </Button>
                </>
              ) : (
                ' The platform states no minimum here: choose a small amount yourself.'
              )}
            </div>
          ) : null}
          <dl className="facts" aria-label="Fee and limits" data-testid="withdraw-facts">
            <dt>Minimum</dt>
            <dd>{rules.minAmount ? formatMoney(rules.minAmount, rules.currency) : 'none stated'}</dd>
            <dt>Per withdrawal</dt>
            <dd>
              {rules.maxPerWithdrawal && rules.maxPerWithdrawal !== '0'
                ? formatMoney(rules.maxPerWithdrawal, rules.currency)
                : 'no limit stated'}
            </dd>
            <dt>Left today</dt>
            <dd data-testid="day-remaining">
              {rules.dayLimitRemaining ? formatMoney(rules.dayLimitRemaining, rules.currency) : 'not stated'}
              {rules.dayLimit ? ` of ${formatMoney(rules.dayLimit, rules.currency)}` : ''}
            </dd>
            <dt>Fee</dt>
            <dd data-testid="withdraw-fee">{q ? formatMoney(q.fee, rules.currency) : '—'}</dd>
            <dt>Recipient gets</dt>
            <dd data-testid="withdraw-net">{q ? formatMoney(q.net, rules.currency) : '—'}</dd>
            <dt>Taken from balance</dt>
            <dd data-testid="withdraw-debit">{q ? formatMoney(q.debit, rules.currency) : '—'}</dd>
          </dl>
          <FeeEstimateNote />
        </>
      ) : null}

      {firstProblem ? (
        // The problem itself is at its field (once); this only says why nothing opened.
        <p className="field-error" data-testid="withdraw-blocked">
          Not sent: check {WITHDRAW_FIELDS[firstProblem]}.
        </p>
      ) : null}
      <div className="form-actions">
        <Button
          type="submit"
          variant="primary"
          data-testid="withdraw-review"
          // A refused saved address cannot be reviewed at all; its reason is at the field above.
          disabled={refused !== undefined}
          aria-describedby={refused ? 'withdraw-review-why' : undefined}
        >
          Review withdrawal
        </Button>
        {refused ? (
          <span id="withdraw-review-why" className="field-hint" data-testid="withdraw-review-why">
            Choose a verified address: the platform refuses this one.
          </span>
        ) : null}
      </div>
      {queued ? (
        <p className="notice notice-warn" role="status" data-testid="withdraw-queued">
          This needs another operator’s approval. It waits in Approvals; nothing was sent yet. {queued}
        </p>
      ) : null}

      {reviewing && rules && chain && q && !refused ? (
        <ReviewSheet
          input={reviewing}
          chain={chain}
          quote={q}
          saved={saved}
          onClose={() => setReviewing(undefined)}
          onRefused={onRefused}
          onQueued={(message) => {
            setReviewing(undefined);
            form.reset(EMPTY);
            draft.reset();
            setQueued(message);
          }}
          onSent={(result) => {
            setReviewing(undefined);
            form.reset(EMPTY);
            draft.reset();
            onSent(result);
          }}
        />
      ) : null}
    </form>
  );
}
