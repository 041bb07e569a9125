/**
 * One item waiting in Approvals, compact: what it is and where it goes (the address book's name and
 * the address in groups), the risk flags (a new destination, not in the address book, a possible
 * duplicate, more than the balance), why it needs approval (the rule it is above), the spot balance
 * after it, who prepared it and how long it still waits. The decision sits beside it: an approver
 * approves or rejects with a reason; its maker may only retract it (it is then never sent).
 */
import Decimal from 'decimal.js';
import { useState } from 'react';
import type { SpotBalance } from '../../../../shared/contract/balances';
import type { Approval } from '../../../../shared/contract/policies';
import type { AddressBook } from '../../lib/addressBook';
import { type DeskCallError, useDeskMutation } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { Badge, Button, ChainId, FieldError, Notice, TextField, Time, Uid } from '../../ui';
import { ExpiresIn } from './ExpiresIn';
import { KIND_WORDS } from './words';

/** A refusal in words, with main's advice when it has one. */
const refusal = (error: DeskCallError): string => (error.advice ? `${error.message} ${error.advice}` : error.message);

/** What the spot account holds of each currency after the item is sent (before the network fee). */
export const balancesAfter = (
  item: Approval,
  spot: readonly SpotBalance[] | undefined,
): { currency: string; now: string; after: string }[] => {
  if (!spot || item.kind === 'control') return [];
  const amounts = item.batch ? item.batch.totals : [{ currency: item.currency, amount: item.amount }];
  return amounts.flatMap(({ currency, amount }) => {
    try {
      const now = spot.find((b) => b.currency.toUpperCase() === currency.toUpperCase())?.available ?? '0';
      return [{ currency, now, after: new Decimal(now).minus(amount).toFixed() }];
    } catch {
      return [];
    }
  });
};

/** "Withdraw 2,500 USDT to OTC desk (TRC20)": the title, with the address book's name when it has one. */
export const approvalTitle = (item: Approval, book: AddressBook): string => {
  if (item.kind === 'withdrawal' && item.to && 'address' in item.to) {
    const label = book.lookup(item.to.chain, item.to.address, item.to.memo)?.name;
    const money = formatMoney(item.amount, item.currency);
    return label ? `Withdraw ${money} to ${label}` : `Withdraw ${money} on ${item.to.chain}`;
  }
  return item.summary;
};

function Destination({ item, label }: { readonly item: Approval; readonly label: string | undefined }) {
  const to = item.to;
  if (to && 'uid' in to) {
    return (
      <span data-testid="approval-destination">
        UID <Uid value={to.uid} />
      </span>
    );
  }
  if (to) {
    return (
      <span className="approval-destination">
        <span data-testid="approval-destination-label">{label ? `${label} · ${to.chain}` : to.chain}</span>
        <ChainId chain={to.chain} target="address" value={to.address} testId="approval-destination" />
        {to.memo ? <span data-testid="approval-memo">Memo {to.memo}</span> : null}
      </span>
    );
  }
  return <span data-testid="approval-destination">{item.destination}</span>;
}

export function PendingItem({
  item,
  operatorId,
  book,
  spot,
}: {
  readonly item: Approval;
  readonly operatorId: string | undefined;
  readonly book: AddressBook;
  readonly spot: readonly SpotBalance[] | undefined;
}) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const options = {
    invalidates: ['approvals.list'] as const,
    onSuccess: () => setError(undefined),
    onError: (failure: DeskCallError) => setError(refusal(failure)),
  };
  const approve = useDeskMutation('approvals.approve', { ...options, invalidates: [...options.invalidates] });
  const reject = useDeskMutation('approvals.reject', { ...options, invalidates: [...options.invalidates] });
  const retract = useDeskMutation('approvals.retract', { ...options, invalidates: [...options.invalidates] });
  const ownItem = operatorId !== undefined && operatorId === item.makerId;
  const reasonProblem = reason.trim() === '' ? 'Give a reason (it is kept in the audit log).' : undefined;
  const decide = (which: 'approve' | 'reject' | 'retract') => {
    setTried(true);
    setError(undefined);
    if (reasonProblem) return;
    ({ approve, reject, retract })[which].mutate({ id: item.id, reason: reason.trim() });
  };
  const busy = approve.isPending || reject.isPending || retract.isPending;
  const to = item.to && 'address' in item.to ? item.to : undefined;
  const saved = to ? book.lookup(to.chain, to.address, to.memo) : undefined;
  const after = balancesAfter(item, spot);
  const short = after.filter((b) => new Decimal(b.after).isNegative());
  const titleId = `approval-${item.id}-title`;
  return (
    <li>
      <article className="approval-item" aria-labelledby={titleId} data-testid={`approval-${item.id}`}>
        <div className="approval-what">
          <header className="approval-head">
            <Badge tone="neutral">{KIND_WORDS[item.kind]}</Badge>
            <h3 id={titleId} data-testid="approval-summary">
              {approvalTitle(item, book)}
            </h3>
          </header>
          <ul className="approval-flags" aria-label="Risk flags" data-testid="approval-flags">
            {item.newDestination ? (
              <li>
                <Badge tone="bad">New destination</Badge>
              </li>
            ) : null}
            {to && book.ready && !saved ? (
              <li>
                <Badge tone="warn">Not in the address book</Badge>
              </li>
            ) : null}
            {item.possibleDuplicateOf ? (
              <li>
                <Badge tone="warn">Possible duplicate</Badge>
              </li>
            ) : null}
            {short.length > 0 ? (
              <li>
                <Badge tone="bad">More than the balance</Badge>
              </li>
            ) : null}
          </ul>
          <dl className="facts approval-facts">
            {item.control ? (
              <>
                <dt>What changes</dt>
                <dd>
                  <ul data-testid="approval-changes">
                    {item.control.changes.map((c) => (
                      <li key={`${c.label}:${c.before}:${c.after}`}>
                        {c.label}: {c.before === c.after ? c.after : `${c.before} → ${c.after}`}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : (
              <>
                <dt>Amount</dt>
                <dd>
                  <span data-testid="approval-amount">{formatMoney(item.amount, item.currency)}</span>
                  {item.usdtValue !== undefined && item.currency !== 'USDT' ? (
                    <span className="muted"> ≈ {formatMoney(item.usdtValue, 'USDT', { estimate: true })}</span>
                  ) : null}
                </dd>
                {item.kind === 'batch' ? null : (
                  <>
                    <dt>To</dt>
                    <dd>
                      <Destination item={item} label={saved?.name} />
                    </dd>
                  </>
                )}
              </>
            )}
            {after.length > 0 ? (
              <>
                <dt>Spot after</dt>
                <dd data-testid="approval-balance-after">
                  {after.map((b, i) => (
                    <span key={b.currency} className={new Decimal(b.after).isNegative() ? 'approval-short' : undefined}>
                      {i > 0 ? ' · ' : ''}
                      {formatMoney(b.after, b.currency)}
                      <span className="muted"> (now {formatMoney(b.now, b.currency)}, before the fee)</span>
                    </span>
                  ))}
                </dd>
              </>
            ) : null}
            <dt>Needs approval</dt>
            <dd>
              <ul data-testid="approval-reasons" className="approval-reasons">
                {item.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </dd>
            <dt>Prepared by</dt>
            <dd data-testid="approval-maker">
              {item.makerName} · <Time ms={item.createdAt} />
              {item.origin && item.origin !== 'screen' ? (
                <span className="muted" data-testid="approval-origin">
                  {' '}
                  · {item.origin}
                </span>
              ) : null}
            </dd>
            <dt>Waits until</dt>
            <dd>
              <Time ms={item.expiresAt} /> · <ExpiresIn at={item.expiresAt} testId="approval-expires" />
            </dd>
          </dl>
          {item.possibleDuplicateOf ? (
            <Notice tone="warn" compact data-testid="approval-duplicate">
              Possible duplicate: {item.makerName} prepared another one with the same amount and destination within the
              hour. Check that both are wanted before approving either.
            </Notice>
          ) : null}
          {item.batch ? (
            <details>
              <summary>{`${item.batch.rows.length} rows of batch “${item.batch.name}”`}</summary>
              <ul>
                {item.batch.rows.map((row) => (
                  <li key={row.row}>{`Row ${row.row}: ${row.summary}`}</li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
        <div className="approval-decision">
          {ownItem ? (
            <p className="field-hint" data-testid="approval-own">
              You prepared this: another operator approves it. You can retract it; it is then never{' '}
              {item.kind === 'control' ? 'applied' : 'sent'}.
            </p>
          ) : null}
          <TextField
            label={ownItem ? 'Reason to retract it' : 'Reason for your decision'}
            value={reason}
            onChange={setReason}
            maxLength={500}
            error={tried ? reasonProblem : undefined}
            data-testid="approval-reason"
          />
          <FieldError message={error} testId="approval-error" />
          <div className="row-actions">
            <Button
              variant="primary"
              busy={approve.isPending}
              disabled={busy || ownItem}
              onClick={() => decide('approve')}
              data-testid="approval-approve"
            >
              {item.kind === 'control' ? 'Approve and apply' : 'Approve and send'}
            </Button>
            {ownItem ? (
              <Button
                busy={retract.isPending}
                disabled={busy}
                onClick={() => decide('retract')}
                data-testid="approval-retract"
              >
                Retract
              </Button>
            ) : (
              <Button
                variant="danger"
                busy={reject.isPending}
                disabled={busy}
                onClick={() => decide('reject')}
                data-testid="approval-reject"
              >
                Reject
              </Button>
            )}
          </div>
          {ownItem ? null : (
            <p className="field-hint">Approving asks you to confirm in the Treasury Desk confirmation window.</p>
          )}
        </div>
      </article>
    </li>
  );
}
