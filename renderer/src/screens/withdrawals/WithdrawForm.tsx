/**
 * New withdrawal: currency → network → saved address → memo → amount, with the fee, limits and the
 * net amount shown before anything is sent. Every rule is checked here first (and again in main);
 * "Review" opens the review sheet, which is the only place that sends.
 */
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { create } from 'zustand';
import {
  type CurrencyChainInfo,
  destinationKey,
  type SavedAddress,
  type WithdrawResult,
} from '../../../../shared/contract/funding';
import { savedAddressRefusal } from '../../../../shared/platform/savedAddresses';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import { type FormFields, type LabelFields, placeRefusal } from '../../lib/formErrors';
import { Badge, Button, EmptyState, ErrorNotice, Loading, LongId, Select, TextField } from '../../ui';
import { FeeEstimateNote } from './FeeEstimateNote';
import { firstWithdrawalTo, ReviewSheet } from './ReviewSheet';
import { amountProblem, quote } from './withdrawMath';

interface Draft {
  readonly currency: string;
  readonly chain: string;
  readonly address: string;
  readonly memo: string;
  readonly amount: string;
  set(patch: Partial<Omit<Draft, 'set' | 'reset'>>): void;
  reset(): void;
}

const EMPTY = { currency: '', chain: '', address: '', memo: '', amount: '' };

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

type WithdrawField = 'currency' | 'chain' | 'address' | 'memo' | 'amount';
const WITHDRAW_FIELDS: FormFields<Record<WithdrawField, string>> = {
  currency: 'Currency',
  chain: 'Network',
  address: 'Destination',
  memo: 'Memo / tag',
  amount: 'Amount',
};
/** Platform refusals about one field of the form: one banner, that field highlighted. */
const WITHDRAW_LABELS: LabelFields<Record<WithdrawField, string>> = {
  BALANCE_NOT_ENOUGH: 'amount',
  WITHDRAWAL_OVER_LIMIT: 'amount',
  INVALID_PRECISION: 'amount',
  AMOUNT_TOO_LITTLE: 'amount',
  AMOUNT_TOO_MUCH: 'amount',
  ADDRESS_NOT_USED: 'address',
  INVALID_CURRENCY: 'currency',
};
/** A refusal put on a field: main's message ('' = highlighted only; the banner says why). */
type Refused = Partial<Record<WithdrawField, string>>;

export function WithdrawForm({ onSent }: { readonly onSent: (result: WithdrawResult) => void }) {
  const draft = useWithdrawDraft();
  const [showErrors, setShowErrors] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  // Main's or the platform's refusal of the last "Send", put on the fields it names (until edited).
  const [refusedAt, setRefusedAt] = useState<Refused>({});
  const edit = (patch: Partial<Omit<Draft, 'set' | 'reset'>>) => {
    setRefusedAt((r) => Object.fromEntries(Object.entries(r).filter(([f]) => !(f in patch))));
    draft.set(patch);
  };
  const onRefused = (error: unknown): unknown => {
    const placed: Refused = {};
    const setError = ((name: WithdrawField, e: { message?: string }) => {
      placed[name] = e.message ?? '';
    }) as unknown as UseFormSetError<FieldValues>;
    const left = placeRefusal(error, setError, WITHDRAW_FIELDS, WITHDRAW_LABELS);
    setRefusedAt(placed);
    // Everything went to a field: back to the form, where it shows.
    if (left === undefined) setReviewing(false);
    return left;
  };
  /** The field's message, once: its own rule (when shown), else main's refusal of it. */
  const fieldError = (field: WithdrawField, shown: boolean): string | undefined =>
    (shown ? problems[field] : undefined) ?? (refusedAt[field] || undefined);
  const highlighted = (field: WithdrawField) => refusedAt[field] !== undefined;

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

  const currencyOptions = useMemo(() => {
    const list = [...(rulesQuery.data ?? [])].sort((a, b) => a.currency.localeCompare(b.currency));
    return [{ value: '', label: 'Choose a currency' }, ...list.map((r) => ({ value: r.currency, label: r.currency }))];
  }, [rulesQuery.data]);

  // What was typed ("1,000.5", ".5", pasted spaces) read once; the rules and the review see the canonical value.
  const typed = parseAmountInput(draft.amount);
  const amount = typed.ok ? typed.value : '';
  const problems = {
    currency: draft.currency === '' ? 'Choose a currency.' : undefined,
    chain: draft.chain === '' ? 'Choose a network.' : chain && chainProblem(chain) ? chainProblem(chain) : undefined,
    address: draft.address === '' ? 'Choose a saved address.' : refused,
    memo:
      chain?.usesMemo && draft.memo.trim() === ''
        ? `${chain.chain} needs a memo/tag: without it the receiving platform cannot credit the funds.`
        : draft.memo.length > 128
          ? 'The memo is too long.'
          : undefined,
    amount:
      rules && chain ? (typed.ok ? amountProblem({ amount, rules, chain, available }) : typed.message) : undefined,
  };
  const firstProblem = (Object.keys(problems) as WithdrawField[]).find((f) => problems[f]);
  // Never sent to before (the review's "first withdrawal to this address"): offer a test amount first.
  const firstTime = firstWithdrawalTo(saved);
  const testAmount =
    rules?.minAmount && new Decimal(rules.minAmount).gt(0) ? new Decimal(rules.minAmount).toFixed() : undefined;
  const q = rules && chain && !problems.amount ? quote(rules, chain.chain, amount, chain.decimals) : undefined;

  if (rulesQuery.isPending) return <Loading label="Loading currencies…" />;
  if (rulesQuery.isError) return <ErrorNotice error={rulesQuery.error} onRetry={() => void rulesQuery.refetch()} />;

  return (
    <form
      className="withdraw-form stack"
      aria-label="New withdrawal"
      onSubmit={(event) => {
        event.preventDefault();
        setShowErrors(true);
        if (!firstProblem) setReviewing(true);
      }}
    >
      <Select
        label="Currency"
        value={draft.currency}
        options={currencyOptions}
        onChange={(currency) => edit({ currency, chain: '', address: '', memo: '', amount: '' })}
        error={fieldError('currency', showErrors)}
        invalid={highlighted('currency')}
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
          {fieldError('chain', showErrors) ? (
            <div className="field-error" role="alert">
              {fieldError('chain', showErrors)}
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
          {fieldError('address', showErrors || refused !== undefined) ? (
            <div className="field-error" role="alert" data-testid="saved-address-error">
              {fieldError('address', showErrors || refused !== undefined)}
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
        <TextField
          label="Memo / tag"
          value={draft.memo}
          onChange={(memo) => edit({ memo })}
          error={fieldError('memo', showErrors || draft.memo !== '')}
          invalid={highlighted('memo')}
          hint="The receiving platform uses it to credit the right account."
        />
      ) : null}

      {draft.address !== '' && rules && chain ? (
        <>
          <TextField
            label="Amount"
            value={draft.amount}
            onChange={(typedAmount) => edit({ amount: typedAmount })}
            inputMode="decimal"
            suffix={draft.currency}
            error={fieldError('amount', showErrors || draft.amount !== '')}
            invalid={highlighted('amount')}
            hint={available !== undefined ? <>Available: {formatMoney(available, draft.currency)}</> : undefined}
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

      {showErrors && firstProblem ? (
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

      {reviewing && rules && chain && q && !refused ? (
        <ReviewSheet
          input={{
            currency: draft.currency,
            chain: chain.chain,
            address: draft.address,
            amount,
            ...(chain.usesMemo && draft.memo.trim() !== '' ? { memo: draft.memo.trim() } : {}),
          }}
          chain={chain}
          quote={q}
          saved={saved}
          onClose={() => setReviewing(false)}
          onRefused={onRefused}
          onSent={(result) => {
            setReviewing(false);
            setShowErrors(false);
            setRefusedAt({});
            draft.reset();
            onSent(result);
          }}
        />
      ) : null}
    </form>
  );
}
