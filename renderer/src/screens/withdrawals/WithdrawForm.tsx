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
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
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
import { withdrawalTimeline } from '../../../../shared/platform/timelines';
import { type DeskCallError, useDeskQuery } from '../../lib/desk';
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
import { lastDays, type Range } from '../../lib/period';
import { matchesSearch } from '../../lib/search';
import {
  AmountField,
  Badge,
  Button,
  Choice,
  EmptyState,
  ErrorNotice,
  FieldError,
  Loading,
  LongId,
  Notice,
  Select,
  TextField,
  Time,
} from '../../ui';
import { approvalReasons } from './approvalForecast';
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

/** A network as people read it: "ETH · Ethereum (ERC20)" (never nested brackets). */
const networkName = (c: CurrencyChainInfo): string =>
  c.nameEn && c.nameEn !== c.chain ? `${c.chain} · ${c.nameEn}` : c.chain;

const RECENT_STALE_MS = 5 * 60_000;
let recentRange: Range | undefined;
/**
 * The period of the empty form's recent withdrawals: the same one while its end (a minute boundary
 * plus an hour's margin) is still more than half an hour ahead, so each return to the empty form is
 * one query key — a record stamped within the period is put into it by the events.
 */
const recentWithdrawalsRange = (): Range => {
  const nowSeconds = Date.now() / 1000;
  if (recentRange === undefined || nowSeconds > recentRange.to - 1800) recentRange = lastDays(30);
  return recentRange;
};

/**
 * Before a currency is chosen: what can be sent (spot balances, each a way in) and the last
 * withdrawals with where they stand, so the empty form is a starting point.
 */
function WithdrawStart({ onPick }: { readonly onPick: (currency: string) => void }) {
  const spot = useDeskQuery(['balances.spot', {}], { staleTime: 10_000 });
  const [range] = useState(recentWithdrawalsRange);
  // Main's withdrawal events keep this list current (lib/eventCache.ts), so coming back to the
  // empty form (after a send) shows it from the cache instead of reading 30 days again.
  const recent = useDeskQuery(['funding.withdrawals', { range }], { staleTime: RECENT_STALE_MS });
  const balances = (spot.data ?? []).filter((b) => !new Decimal(b.available).isZero()).slice(0, 8);
  const latest = [...(recent.data ?? [])].sort((a, b) => b.time - a.time).slice(0, 5);
  return (
    <section className="card" aria-label="Start a withdrawal" data-testid="withdraw-start">
      <h2>Available to send</h2>
      {balances.length === 0 && spot.data ? <p className="muted">The spot account holds nothing to send.</p> : null}
      <ul className="withdraw-start-list">
        {balances.map((b) => (
          <li key={b.currency}>
            <Button size="sm" variant="ghost" onClick={() => onPick(b.currency)} aria-label={`Withdraw ${b.currency}`}>
              {b.currency}
            </Button>
            <span className="num">{formatMoney(b.available, b.currency)}</span>
          </li>
        ))}
      </ul>
      <h2>Recent withdrawals</h2>
      {recent.data && latest.length === 0 ? <p className="muted">None in the last 30 days.</p> : null}
      <ul className="withdraw-start-list" data-testid="withdraw-recent">
        {latest.map((w) => (
          <li key={w.id}>
            <span>
              <Time ms={w.time * 1000} />
            </span>
            <span className="num">{formatMoney(w.amount, w.currency)}</span>
            <span className="muted">{withdrawalTimeline(w).headline}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

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

/**
 * The network choices and the saved addresses: memoised, so that typing an amount or a memo (a
 * re-render of the form per keystroke) does not draw the lists again; they change with the
 * networks, the address book, the search and the choice.
 */
const NetworkChoices = memo(function NetworkChoices({
  chains,
  chosen,
  onChoose,
}: {
  readonly chains: readonly CurrencyChainInfo[] | undefined;
  readonly chosen: string;
  readonly onChoose: (patch: Partial<WithdrawValues>) => void;
}) {
  return (
    <div className="choice-list" role="radiogroup" aria-label="Network">
      {chains?.map((c) => {
        const why = chainProblem(c);
        return (
          <Choice
            key={c.chain}
            name="withdraw-chain"
            value={c.chain}
            checked={chosen === c.chain}
            why={why}
            onChoose={() => onChoose({ chain: c.chain, address: '', memo: '' })}
            testId={`chain-${c.chain}`}
            title={networkName(c)}
          >
            {c.usesMemo ? <Badge tone="warn">Memo required</Badge> : null}
          </Choice>
        );
      })}
    </div>
  );
});

const SavedAddressChoices = memo(function SavedAddressChoices({
  addresses,
  chosen,
  highlighted,
  onChoose,
}: {
  readonly addresses: readonly SavedAddress[];
  /** The destination key of the draft's (chain, address, memo). */
  readonly chosen: string;
  readonly highlighted: boolean;
  readonly onChoose: (patch: Partial<WithdrawValues>) => void;
}) {
  return (
    <div
      className="choice-list"
      role="radiogroup"
      aria-label="Saved address"
      aria-invalid={highlighted ? true : undefined}
    >
      {addresses.map((a) => {
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
              checked={savedKey(a) === chosen}
              // The platform refuses this one through the API: it cannot be chosen (its note says why).
              disabled={why !== undefined}
              onChange={() => onChoose({ address: a.address, memo: a.tag ?? '' })}
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
  );
});

export function WithdrawForm({ onSent }: { readonly onSent: (result: WithdrawResult) => void }) {
  // The draft the screen reads (queries, fee, dependent choices); the form holds the same values.
  const draft = useWithdrawDraft();
  // What "Review" checked, shown in the review sheet until it closes.
  const [reviewing, setReviewing] = useState<WithdrawDetails | undefined>();
  // The last withdrawal queued for an approver (main's answer), until another is reviewed.
  const [queued, setQueued] = useState<DeskCallError | undefined>();

  const rulesQuery = useDeskQuery(['funding.withdrawRules', {}], { staleTime: 60_000 });
  // For the warning before Send: the policy's approval rules and the prices that value the amount.
  const policyQuery = useDeskQuery(['policies.get', {}], { staleTime: 60_000 });
  const tickersQuery = useDeskQuery(['trade.tickers', {}], {
    staleTime: 60_000,
    enabled: draft.currency !== '' && draft.currency !== 'USDT',
  });
  const [addressSearch, setAddressSearch] = useState('');
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

  // Built again only when what the rules read changes, not on every keystroke.
  const resolver = useMemo(
    () => zodResolver(withdrawSchema({ rules, chain, available, refused })),
    [rules, chain, available, refused],
  );
  const form = useForm<WithdrawValues, unknown, WithdrawDetails>({
    // Read again every render: the rules read the chosen currency's rules, network, balance and saved entry.
    resolver,
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
  const setDraft = draft.set;
  const edit = useCallback(
    (patch: Partial<WithdrawValues>) => {
      editFields(form, patch);
      setDraft(patch);
    },
    [form, setDraft],
  );
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
    resolver,
    WITHDRAW_ORDER,
    (name) =>
      submitted ||
      ((name === 'address' || name === 'memo' || name === 'amount') && draft[name] !== '') ||
      // A memo network's memo is asked for as soon as the destination is chosen (Review waits for it).
      (name === 'memo' && draft.address !== ''),
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
  // Review opens only when it can succeed: otherwise the first thing missing is said beside it.
  const problems = withdrawProblems(draft, { rules, chain, available, refused });
  const amountOk = !problems.amount;
  // Never sent to before (the review's "first withdrawal to this address"): offer a test amount first.
  const firstTime = firstWithdrawalTo(saved);
  const first = WITHDRAW_ORDER.find((f) => problems[f] !== undefined);
  const reviewBlock =
    first === undefined
      ? rules && chain
        ? undefined
        : 'Reading the network’s fee and limits…'
      : first === 'amount' || first === 'memo'
        ? `Check the ${(WITHDRAW_FIELDS[first] ?? first).toLowerCase()} above.`
        : (problems[first] ?? '');
  const shownAddresses = useMemo(
    () => (addressesQuery.data ?? []).filter((a) => matchesSearch(addressSearch, [a.name, a.address, a.tag])),
    [addressesQuery.data, addressSearch],
  );
  const needsApproval = approvalReasons({
    policy: policyQuery.data?.policy,
    tickers: tickersQuery.data,
    currency: draft.currency,
    amount: amountOk ? amount : '',
    newDestination: firstTime,
  });
  const testAmount =
    rules?.minAmount && new Decimal(rules.minAmount).gt(0) ? new Decimal(rules.minAmount).toFixed() : undefined;
  const q = rules && chain && amountOk ? quote(rules, chain.chain, amount, chain.decimals) : undefined;

  if (rulesQuery.isPending) return <Loading label="Loading currencies…" />;
  if (rulesQuery.isError) return <ErrorNotice error={rulesQuery.error} onRetry={() => void rulesQuery.refetch()} />;

  return (
    <form
      className="withdraw-form"
      aria-label="New withdrawal"
      onSubmit={form.handleSubmit((details) => {
        setQueued(undefined);
        setReviewing(details);
      })}
    >
      <div className="withdraw-columns">
        <div className="stack withdraw-destination">
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
              <NetworkChoices chains={chainsQuery.data} chosen={draft.chain} onChoose={edit} />
              <FieldError message={fieldMessage(errors.chain)} />
            </fieldset>
          ) : null}
          {draft.chain !== '' ? (
            <fieldset className={`field-group${highlighted('address') ? ' field-invalid' : ''}`}>
              <legend>Destination (saved address)</legend>
              <p className="field-hint" data-testid="saved-address-explainer">
                Through the API the platform only sends to addresses in your address book on its website that are
                verified or were used there before. To send somewhere new, save the address on the website first (it can
                take up to 24 hours to become usable through the API).
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
              {(addressesQuery.data?.length ?? 0) > 4 ? (
                <TextField
                  label="Search the address book"
                  value={addressSearch}
                  onChange={setAddressSearch}
                  placeholder="Name, address or memo"
                  data-testid="address-search"
                />
              ) : null}
              {addressSearch !== '' && shownAddresses.length === 0 ? (
                <p className="muted">No saved address matches “{addressSearch}”.</p>
              ) : null}
              <SavedAddressChoices
                addresses={shownAddresses}
                chosen={draftDestination}
                highlighted={highlighted('address')}
                onChoose={edit}
              />
              <FieldError message={fieldMessage(errors.address)} testId="saved-address-error" />
            </fieldset>
          ) : null}
        </div>
        <aside className="stack withdraw-summary" aria-label="Withdrawal summary">
          {draft.currency === '' ? <WithdrawStart onPick={(currency) => edit({ ...EMPTY, currency })} /> : null}
          {chain?.usesMemo ? (
            <Notice tone="warn" role="note" data-testid="memo-warning">
              <strong>Memo required on {chain.chain}.</strong> Funds sent without the right memo/tag can be lost.
            </Notice>
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
                  <AmountField
                    label="Amount"
                    value={field.value}
                    onChange={(typedAmount) => edit({ amount: typedAmount })}
                    validate={false}
                    currency={draft.currency}
                    available={available}
                    error={fieldMessage(fieldState.error)}
                    invalid={fieldState.invalid}
                  />
                )}
              />
              {firstTime ? (
                <Notice role="note" data-testid="test-amount-first">
                  <strong>First withdrawal to this address.</strong> Always send a small amount first: one fee buys the
                  certainty that the address, network and memo are right before the full amount is at risk. The button
                  only fills in the amount; you still review and confirm it.
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
                </Notice>
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
          {needsApproval.length > 0 ? (
            <Notice
              tone="info"
              role="note"
              data-testid="withdraw-needs-approval"
              title="This withdrawal will wait for approval."
            >
              <div className="notice-text">
                {needsApproval.join(' ')} Another operator approves it in Approvals before it is sent.
              </div>
            </Notice>
          ) : null}
          <div className="form-actions">
            <Button
              type="submit"
              variant="primary"
              data-testid="withdraw-review"
              // Review opens only when it can succeed; what is missing is said beside it.
              disabled={reviewBlock !== undefined}
              aria-describedby={reviewBlock ? 'withdraw-review-why' : undefined}
            >
              Review withdrawal
            </Button>
            {reviewBlock ? (
              <span id="withdraw-review-why" className="field-hint" data-testid="withdraw-review-why">
                {reviewBlock}
              </span>
            ) : null}
          </div>
        </aside>
      </div>
      {queued ? (
        // An outcome, not a failure: one sentence, its expiry, the way to Approvals (ui/ErrorNotice).
        <div data-testid="withdraw-queued">
          <ErrorNotice error={queued} />
        </div>
      ) : null}

      {reviewing && rules && chain && q && !refused ? (
        <ReviewSheet
          input={reviewing}
          chain={chain}
          quote={q}
          saved={saved}
          onClose={() => setReviewing(undefined)}
          onRefused={onRefused}
          onQueued={(answer) => {
            setReviewing(undefined);
            form.reset(EMPTY);
            draft.reset();
            setQueued(answer);
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
