/**
 * Settings → Policies: the active profile's policy (shared/contract/policies.ts), which main
 * enforces on every withdrawal and UID transfer — limits per transaction and per rolling 24 hours,
 * per currency and in USDT value; an allowlist of destinations with labels and a cooling-off period;
 * a time-of-day window; the approval rules with the operators' cooling-off; the review threshold
 * (amounts above it are typed in the trusted confirmation). The form is checked with the contract's
 * own schema (errors at the field); saving is admin-only and a control change: the trusted
 * confirmation shows every rule before → after, and with two administrators another approves it
 * (the panel says whether four eyes are in force). Main checks it all again (its refusals show at
 * their field too). See docs/approvals.md.
 */
import { type FormEvent, useState } from 'react';
import { ROLE_NAMES } from '../../../../shared/contract/operators';
import {
  DEFAULT_OPERATOR_COOLING_OFF_HOURS,
  type Policy,
  PolicyInput,
  type PolicyView,
} from '../../../../shared/contract/policies';
import { type DeskCallError, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatTime } from '../../lib/format';
import { usePrefs } from '../../lib/prefs';
import { Button, Checkbox, ErrorNotice, FourEyesStatus, Loading, Select, TextField } from '../../ui';

interface LimitRow {
  readonly currency: string;
  readonly perTransaction: string;
  readonly rolling24h: string;
}
interface ReviewRow {
  readonly currency: string;
  readonly above: string;
}
interface EntryRow {
  readonly currency: string;
  readonly chain: string;
  readonly address: string;
  readonly memo: string;
  readonly label: string;
  /** When main added it (entries already in the policy); new ones get their time from main. */
  readonly addedAt?: number;
}
/** The form as typed: strings where the person types, turned into a PolicyInput on save. */
export interface PolicyDraft {
  readonly usdtPerTransaction: string;
  readonly usdtRolling24h: string;
  readonly limits: readonly LimitRow[];
  readonly allowlistRequired: boolean;
  readonly coolingOffHours: string;
  readonly entries: readonly EntryRow[];
  readonly windowOn: boolean;
  readonly windowFrom: string;
  readonly windowTo: string;
  readonly utcOffsetMinutes: string;
  readonly aboveUsdt: string;
  readonly newDestination: boolean;
  readonly anyPush: boolean;
  readonly approveBatchesAsAWhole: boolean;
  readonly expiresHours: string;
  readonly operatorCoolingOffHours: string;
  /** Per currency, the amount above which the trusted confirmation asks for it typed. */
  readonly review: readonly ReviewRow[];
}

const hhmm = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (text: string): number => {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};
const wholeNumber = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

export const draftOf = (policy: Policy): PolicyDraft => ({
  usdtPerTransaction: policy.usdtLimits.perTransaction ?? '',
  usdtRolling24h: policy.usdtLimits.rolling24h ?? '',
  limits: Object.entries(policy.limits).map(([currency, l]) => ({
    currency,
    perTransaction: l.perTransaction ?? '',
    rolling24h: l.rolling24h ?? '',
  })),
  allowlistRequired: policy.allowlist.required,
  coolingOffHours: String(policy.allowlist.coolingOffHours),
  entries: policy.allowlist.entries.map((e) => ({
    currency: e.currency,
    chain: e.chain,
    address: e.address,
    memo: e.memo ?? '',
    label: e.label,
    addedAt: e.addedAt,
  })),
  windowOn: policy.timeWindow !== undefined,
  windowFrom: hhmm(policy.timeWindow?.fromMinute ?? 9 * 60),
  windowTo: hhmm(policy.timeWindow?.toMinute ?? 18 * 60),
  utcOffsetMinutes: String(policy.timeWindow?.utcOffsetMinutes ?? -new Date().getTimezoneOffset()),
  aboveUsdt: policy.approval.aboveUsdt ?? '',
  newDestination: policy.approval.newDestination,
  anyPush: policy.approval.anyPush,
  approveBatchesAsAWhole: policy.approval.approveBatchesAsAWhole ?? false,
  expiresHours: String(policy.approval.expiresHours),
  operatorCoolingOffHours: String(policy.approval.operatorCoolingOffHours ?? DEFAULT_OPERATOR_COOLING_OFF_HOURS),
  review: Object.entries(policy.review?.typedConfirmAbove ?? {}).map(([currency, above]) => ({ currency, above })),
});

const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());
const limitsOf = (per: string, rolling: string) => {
  const perTransaction = optional(per);
  const rolling24h = optional(rolling);
  return { ...(perTransaction ? { perTransaction } : {}), ...(rolling24h ? { rolling24h } : {}) };
};

/** What the form sends (not yet checked: PolicyInput.safeParse says what is wrong, per field). */
export const inputOf = (d: PolicyDraft): unknown => {
  const aboveUsdt = optional(d.aboveUsdt);
  return {
    limits: Object.fromEntries(
      d.limits.map((row) => [row.currency.trim().toUpperCase(), limitsOf(row.perTransaction, row.rolling24h)]),
    ),
    usdtLimits: limitsOf(d.usdtPerTransaction, d.usdtRolling24h),
    allowlist: {
      required: d.allowlistRequired,
      coolingOffHours: wholeNumber(d.coolingOffHours),
      entries: d.entries.map((e) => ({
        currency: e.currency.trim().toUpperCase(),
        chain: e.chain.trim().toUpperCase(),
        address: e.address.trim(),
        ...(e.memo.trim() ? { memo: e.memo.trim() } : {}),
        label: e.label.trim(),
      })),
    },
    ...(d.windowOn
      ? {
          timeWindow: {
            fromMinute: minuteOf(d.windowFrom),
            toMinute: minuteOf(d.windowTo),
            utcOffsetMinutes: Number(d.utcOffsetMinutes),
          },
        }
      : {}),
    approval: {
      ...(aboveUsdt ? { aboveUsdt } : {}),
      newDestination: d.newDestination,
      anyPush: d.anyPush,
      approveBatchesAsAWhole: d.approveBatchesAsAWhole,
      expiresHours: wholeNumber(d.expiresHours),
      operatorCoolingOffHours: wholeNumber(d.operatorCoolingOffHours),
    },
    review: {
      typedConfirmAbove: Object.fromEntries(d.review.map((r) => [r.currency.trim().toUpperCase(), r.above.trim()])),
    },
  };
};

/** The schema's problems, keyed by field path ("limits.BTC.perTransaction", "allowlist.entries.0.address"). */
export const problemsOf = (input: unknown): Record<string, string> => {
  const parsed = PolicyInput.safeParse(input);
  if (parsed.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.');
    const message =
      issue.code === 'invalid_type' && /number/.test(issue.message)
        ? key.includes('Minute')
          ? 'Enter a time as HH:MM'
          : 'Enter a whole number'
        : issue.message;
    fields[key] ??= message;
  }
  return fields;
};

const OFFSETS = Array.from({ length: (840 + 720) / 30 + 1 }, (_, i) => -720 + i * 30).map((minutes) => ({
  value: String(minutes),
  label: `UTC${minutes < 0 ? '−' : '+'}${Math.floor(Math.abs(minutes) / 60)}${Math.abs(minutes) % 60 ? `:${String(Math.abs(minutes) % 60).padStart(2, '0')}` : ''}`,
}));

/** A refusal in words, with main's advice when it has one. */
const refusal = (error: DeskCallError): string => (error.advice ? `${error.message} ${error.advice}` : error.message);

function PolicyForm({
  view,
  isAdmin,
  saved,
  setSaved,
}: {
  readonly view: PolicyView;
  readonly isAdmin: boolean;
  /** Kept by the panel: the form starts again from main's policy once it is saved. */
  readonly saved: boolean;
  readonly setSaved: (saved: boolean) => void;
}) {
  const [draft, setDraft] = useState<PolicyDraft>(() => draftOf(view.policy));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useDeskMutation('policies.set', {
    invalidates: ['policies.get', 'funding.reviewPolicy', 'approvals.list'],
    onSuccess: () => setSaved(true),
    onError: (failure) => setErrors(failure.fields ?? {}),
  });
  // Four eyes in force: the change waits for another administrator; it is not a failure.
  const queued = save.error?.code === 'AWAITING_APPROVAL';
  const set = (patch: Partial<PolicyDraft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const setLimit = (i: number, patch: Partial<LimitRow>) =>
    set({ limits: draft.limits.map((row, j) => (j === i ? { ...row, ...patch } : row)) });
  const setReview = (i: number, patch: Partial<ReviewRow>) =>
    set({ review: draft.review.map((row, j) => (j === i ? { ...row, ...patch } : row)) });
  const setEntry = (i: number, patch: Partial<EntryRow>) =>
    set({ entries: draft.entries.map((row, j) => (j === i ? { ...row, ...patch } : row)) });
  const limitKey = (row: LimitRow) => `limits.${row.currency.trim().toUpperCase()}`;
  const at = (key: string) => errors[key];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const input = inputOf(draft);
    const problems = problemsOf(input);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    save.mutate(input as PolicyInput);
  };
  const tz = usePrefs((p) => p.timeZone);
  const problemCount = Object.keys(errors).length;
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Policy" data-testid="policy-form">
      {view.updatedAt ? (
        <p className="field-hint" data-testid="policy-updated">
          {`Last changed ${formatTime(view.updatedAt, tz, { withZone: true })}${view.updatedBy ? ` by ${view.updatedBy}` : ''}.`}
        </p>
      ) : (
        <p className="field-hint">No policy set yet: no limits, no allowlist, approvals off.</p>
      )}
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Limits in USDT value (every currency together)</legend>
        <TextField
          label="Per transaction (USDT)"
          value={draft.usdtPerTransaction}
          onChange={(usdtPerTransaction) => set({ usdtPerTransaction })}
          inputMode="decimal"
          hint="Empty: no limit."
          error={at('usdtLimits.perTransaction')}
          data-testid="policy-usdt-per"
        />
        <TextField
          label="Rolling 24 hours (USDT)"
          value={draft.usdtRolling24h}
          onChange={(usdtRolling24h) => set({ usdtRolling24h })}
          inputMode="decimal"
          error={at('usdtLimits.rolling24h')}
          data-testid="policy-usdt-rolling"
        />
      </fieldset>
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Limits per currency</legend>
        {draft.limits.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while edited.
          <div className="row-actions" key={i} data-testid={`policy-limit-${i}`}>
            <TextField
              label={`Currency (limit ${i + 1})`}
              value={row.currency}
              onChange={(currency) => setLimit(i, { currency })}
              error={at(limitKey(row))}
              data-testid={`policy-limit-currency-${i}`}
            />
            <TextField
              label={`Per transaction (limit ${i + 1})`}
              value={row.perTransaction}
              onChange={(perTransaction) => setLimit(i, { perTransaction })}
              inputMode="decimal"
              error={at(`${limitKey(row)}.perTransaction`)}
              data-testid={`policy-limit-per-${i}`}
            />
            <TextField
              label={`Rolling 24 hours (limit ${i + 1})`}
              value={row.rolling24h}
              onChange={(rolling24h) => setLimit(i, { rolling24h })}
              inputMode="decimal"
              error={at(`${limitKey(row)}.rolling24h`)}
              data-testid={`policy-limit-rolling-${i}`}
            />
            <Button size="sm" variant="ghost" onClick={() => set({ limits: draft.limits.filter((_, j) => j !== i) })}>
              {`Remove limit ${i + 1}`}
            </Button>
          </div>
        ))}
        {at('limits') ? <p className="field-error">{at('limits')}</p> : null}
        <div>
          <Button
            size="sm"
            onClick={() => set({ limits: [...draft.limits, { currency: '', perTransaction: '', rolling24h: '' }] })}
            data-testid="policy-add-limit"
          >
            Add a currency limit
          </Button>
        </div>
      </fieldset>
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Allowlist of destinations</legend>
        <Checkbox
          label="Withdraw only to destinations on this list"
          checked={draft.allowlistRequired}
          onChange={(allowlistRequired) => set({ allowlistRequired })}
          testId="policy-allow-required"
        />
        <TextField
          label="Cooling-off for a new destination (hours)"
          value={draft.coolingOffHours}
          onChange={(coolingOffHours) => set({ coolingOffHours })}
          inputMode="numeric"
          hint="A destination can be used this long after main added it."
          error={at('allowlist.coolingOffHours')}
          data-testid="policy-cooling"
        />
        {draft.entries.map((entry, i) => {
          const key = `allowlist.entries.${i}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while edited.
            <div className="stack panel" key={i} data-testid={`policy-entry-${i}`}>
              <TextField
                label={`Label (address ${i + 1})`}
                value={entry.label}
                onChange={(label) => setEntry(i, { label })}
                error={at(`${key}.label`) ?? at(key)}
                data-testid={`policy-entry-label-${i}`}
              />
              <div className="row-actions">
                <TextField
                  label={`Currency (address ${i + 1})`}
                  value={entry.currency}
                  onChange={(currency) => setEntry(i, { currency })}
                  error={at(`${key}.currency`)}
                  data-testid={`policy-entry-currency-${i}`}
                />
                <TextField
                  label={`Network (address ${i + 1})`}
                  value={entry.chain}
                  onChange={(chain) => setEntry(i, { chain })}
                  error={at(`${key}.chain`)}
                  data-testid={`policy-entry-chain-${i}`}
                />
              </div>
              <TextField
                label={`Address (address ${i + 1})`}
                value={entry.address}
                onChange={(address) => setEntry(i, { address })}
                error={at(`${key}.address`)}
                className="mono"
                data-testid={`policy-entry-address-${i}`}
              />
              <TextField
                label={`Memo / tag (address ${i + 1}, optional)`}
                value={entry.memo}
                onChange={(memo) => setEntry(i, { memo })}
                error={at(`${key}.memo`)}
                data-testid={`policy-entry-memo-${i}`}
              />
              <p className="field-hint">
                {entry.addedAt
                  ? `Added ${formatTime(entry.addedAt, tz, { withZone: true })}.`
                  : 'New: main records when it is added; the cooling-off starts then.'}
              </p>
              <div>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => set({ entries: draft.entries.filter((_, j) => j !== i) })}
                >
                  {`Remove address ${i + 1}`}
                </Button>
              </div>
            </div>
          );
        })}
        <div>
          <Button
            size="sm"
            onClick={() =>
              set({ entries: [...draft.entries, { currency: '', chain: '', address: '', memo: '', label: '' }] })
            }
            data-testid="policy-add-entry"
          >
            Add a destination
          </Button>
        </div>
      </fieldset>
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Time of day</legend>
        <Checkbox
          label="Allow movements only between two times of day"
          checked={draft.windowOn}
          onChange={(windowOn) => set({ windowOn })}
          testId="policy-window-on"
        />
        {draft.windowOn ? (
          <div className="row-actions">
            <TextField
              label="From (HH:MM)"
              type="time"
              value={draft.windowFrom}
              onChange={(windowFrom) => set({ windowFrom })}
              error={at('timeWindow.fromMinute')}
              data-testid="policy-window-from"
            />
            <TextField
              label="To (HH:MM)"
              type="time"
              value={draft.windowTo}
              onChange={(windowTo) => set({ windowTo })}
              error={at('timeWindow.toMinute') ?? at('timeWindow')}
              data-testid="policy-window-to"
            />
            <Select<string>
              label="Time zone"
              value={draft.utcOffsetMinutes}
              options={OFFSETS}
              onChange={(utcOffsetMinutes) => set({ utcOffsetMinutes })}
              data-testid="policy-window-offset"
            />
          </div>
        ) : null}
      </fieldset>
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Approval by a second operator</legend>
        <TextField
          label="Needs approval above (USDT value)"
          value={draft.aboveUsdt}
          onChange={(aboveUsdt) => set({ aboveUsdt })}
          inputMode="decimal"
          hint="Empty: no amount rule. A movement whose value cannot be read needs approval too."
          error={at('approval.aboveUsdt')}
          data-testid="policy-above-usdt"
        />
        <Checkbox
          label="A withdrawal to a destination this profile never sent to needs approval"
          checked={draft.newDestination}
          onChange={(newDestination) => set({ newDestination })}
          testId="policy-new-destination"
        />
        <Checkbox
          label="Every UID transfer needs approval"
          checked={draft.anyPush}
          onChange={(anyPush) => set({ anyPush })}
          testId="policy-any-push"
        />
        <Checkbox
          label="A bulk batch that needs approval waits as one item"
          hint="One approver approves the whole batch (its rows, totals and reasons) before any row is sent; off, each row that needs approval waits on its own."
          checked={draft.approveBatchesAsAWhole}
          onChange={(approveBatchesAsAWhole) => set({ approveBatchesAsAWhole })}
          testId="policy-batches-whole"
        />
        <TextField
          label="A movement waits for approval at most (hours)"
          value={draft.expiresHours}
          onChange={(expiresHours) => set({ expiresHours })}
          inputMode="numeric"
          error={at('approval.expiresHours')}
          data-testid="policy-expires"
        />
        <TextField
          label="Operator cooling-off (hours)"
          value={draft.operatorCoolingOffHours}
          onChange={(operatorCoolingOffHours) => set({ operatorCoolingOffHours })}
          inputMode="numeric"
          hint="This long after an administrator creates an operator, changes their role or resets their passphrase, that operator may not approve what this administrator prepared."
          error={at('approval.operatorCoolingOffHours')}
          data-testid="policy-operator-cooling"
        />
      </fieldset>
      <fieldset className="stack" disabled={!isAdmin || save.isPending}>
        <legend>Typed amount in the confirmation</legend>
        <p className="field-hint">
          Withdrawals, UID transfers and transfers above these amounts need the amount typed in the Treasury Desk
          confirmation window. Currencies not listed always need it.
        </p>
        {draft.review.map((row, i) => {
          const key = `review.typedConfirmAbove.${row.currency.trim().toUpperCase()}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while edited.
            <div className="row-actions" key={i} data-testid={`policy-review-${i}`}>
              <TextField
                label={`Currency (threshold ${i + 1})`}
                value={row.currency}
                onChange={(currency) => setReview(i, { currency })}
                error={at('review.typedConfirmAbove')}
                data-testid={`policy-review-currency-${i}`}
              />
              <TextField
                label={`Typed above (threshold ${i + 1})`}
                value={row.above}
                onChange={(above) => setReview(i, { above })}
                inputMode="decimal"
                error={at(key)}
                data-testid={`policy-review-above-${i}`}
              />
              <Button size="sm" variant="ghost" onClick={() => set({ review: draft.review.filter((_, j) => j !== i) })}>
                {`Remove threshold ${i + 1}`}
              </Button>
            </div>
          );
        })}
        <div>
          <Button
            size="sm"
            onClick={() => set({ review: [...draft.review, { currency: '', above: '' }] })}
            data-testid="policy-add-review"
          >
            Add a currency threshold
          </Button>
        </div>
      </fieldset>
      {problemCount > 0 && !save.error ? (
        <p className="field-error" role="alert" data-testid="policy-invalid">
          {`Nothing was saved: ${problemCount === 1 ? 'one field needs' : `${problemCount} fields need`} attention.`}
        </p>
      ) : null}
      {save.error && queued ? (
        <p className="notice notice-warn" role="status" data-testid="policy-queued">
          The change waits for another administrator in Approvals; the policy stays as it is until then.
        </p>
      ) : save.error ? (
        <p className="field-error" role="alert" data-testid="policy-error">
          {refusal(save.error)}
        </p>
      ) : null}
      {saved ? (
        <p className="field-hint" role="status" data-testid="policy-saved">
          Policy saved. Main enforces it from now on.
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!isAdmin} data-testid="policy-save">
          Save policy
        </Button>
      </div>
      <p className="field-hint">Saving asks you to confirm in the Treasury Desk confirmation window.</p>
    </form>
  );
}

export function PoliciesPanel() {
  const session = useDeskQuery(['operators.current', {}]);
  const policy = useDeskQuery(['policies.get', {}]);
  const operator = session.data?.operator ?? undefined;
  const isAdmin = operator?.role === 'admin';
  const [saved, setSaved] = useState(false);
  return (
    <section className="panel" aria-labelledby="settings-policies" data-testid="policies-panel">
      <h2 id="settings-policies">Policies</h2>
      <p className="field-hint">
        Checked by the desk itself on every withdrawal and UID transfer of the active profile, however it was prepared
        (a form, a batch or an approval).
      </p>
      {operator && !isAdmin ? (
        <p className="field-hint" data-testid="policy-admin-only">
          {`Only an administrator changes the policy (you are signed in as ${ROLE_NAMES[operator.role].toLowerCase()}).`}
        </p>
      ) : null}
      <FourEyesStatus />
      {policy.isPending ? (
        <Loading />
      ) : policy.isError ? (
        <ErrorNotice error={policy.error} onRetry={() => policy.refetch()} />
      ) : (
        <PolicyForm
          key={`${policy.data.profileId}-${policy.data.updatedAt ?? 0}`}
          view={policy.data}
          isAdmin={isAdmin}
          saved={saved}
          setSaved={setSaved}
        />
      )}
    </section>
  );
}
