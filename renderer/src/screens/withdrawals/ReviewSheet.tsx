/**
 * The last look before a withdrawal leaves: every field in full (the address in groups of four so
 * it can be compared character by character), the fee and the net amount, a badge when the address
 * was never used before, and a typed confirmation of the amount above the configured threshold.
 * Sending is disabled while the request is in flight, so a double click can never send twice.
 */
import { useState } from 'react';
import type {
  CurrencyChainInfo,
  SavedAddress,
  WithdrawInput,
  WithdrawResult,
} from '../../../../shared/contract/funding';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { chunk, formatAmount } from '../../lib/format';
import { Badge, Button, Dialog, ErrorNotice, TextField } from '../../ui';
import { needsTypedConfirmation, typedAmountMatches, type WithdrawQuote } from './withdrawMath';

export interface ReviewSheetProps {
  readonly input: WithdrawInput;
  readonly chain: CurrencyChainInfo;
  readonly quote: WithdrawQuote;
  readonly saved: SavedAddress | undefined;
  readonly onClose: () => void;
  readonly onSent: (result: WithdrawResult) => void;
}

export function ReviewSheet({ input, chain, quote, saved, onClose, onSent }: ReviewSheetProps) {
  const policy = useDeskQuery(['funding.reviewPolicy', {}]);
  const [typed, setTyped] = useState('');
  const send = useDeskMutation('funding.withdraw', {
    invalidates: ['funding.withdrawals', 'balances.spot', 'funding.withdrawRules', 'funding.savedAddresses'],
    onSuccess: (result) => onSent(result),
  });
  // Until the policy is known, ask for the typed confirmation (the safe side).
  const mustType = needsTypedConfirmation(input.amount, input.currency, policy.data?.typedConfirmAbove ?? {});
  const typedOk = !mustType || typedAmountMatches(typed, input.amount);
  const firstTime = saved === undefined || saved.previousWithdrawals === 0;
  const busy = send.isPending;

  return (
    <Dialog
      open
      title="Review withdrawal"
      onClose={onClose}
      busy={busy}
      size="md"
      testId="review-sheet"
      footer={
        <>
          <Button onClick={onClose} disabled={busy} autoFocus>
            Back
          </Button>
          <Button
            variant="primary"
            busy={busy}
            // After success, or when the outcome is unknown, sending again could pay twice.
            disabled={!typedOk || send.isSuccess || send.error?.code === 'OUTCOME_UNKNOWN'}
            onClick={() => send.mutate(input)}
            data-testid="withdraw-send"
          >
            Send {formatAmount(input.amount)} {input.currency}
          </Button>
        </>
      }
    >
      <dl className="review-list">
        <dt>Amount</dt>
        <dd data-testid="review-amount">
          {formatAmount(input.amount)} {input.currency}
        </dd>
        <dt>Network</dt>
        <dd data-testid="review-network">
          {chain.chain}
          {chain.nameEn && chain.nameEn !== chain.chain ? ` (${chain.nameEn})` : ''}
        </dd>
        <dt>To address</dt>
        <dd>
          <code className="address-chunks address-full" data-testid="review-address">
            {chunk(input.address)
              .split(' ')
              .map((part, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: chunks of a fixed string, order never changes
                <span key={i} className="chunk">
                  {part}
                </span>
              ))}
          </code>
          {saved?.name ? <div className="muted">Saved as “{saved.name}”</div> : null}
          <div>
            {firstTime ? (
              <Badge tone="warn" testId="first-time-badge">
                First withdrawal to this address
              </Badge>
            ) : (
              <Badge tone="good">Used {saved?.previousWithdrawals}× before</Badge>
            )}
          </div>
        </dd>
        {chain.usesMemo ? (
          <>
            <dt>Memo / tag</dt>
            <dd data-testid="review-memo">
              <code>{input.memo}</code>
            </dd>
          </>
        ) : null}
        <dt>Fee</dt>
        <dd data-testid="review-fee">
          {formatAmount(quote.fee)} {input.currency}
        </dd>
        <dt>Recipient gets</dt>
        <dd data-testid="review-net">
          <strong>
            {formatAmount(quote.net)} {input.currency}
          </strong>
        </dd>
        <dt>Taken from spot balance</dt>
        <dd data-testid="review-debit">
          {formatAmount(quote.debit)} {input.currency}
        </dd>
      </dl>
      {firstTime ? (
        <p className="notice notice-warn">
          You have not sent to this address from here before. Compare the whole address with the one you expect; for a
          large amount consider sending a small test amount first.
        </p>
      ) : null}
      {mustType ? (
        <TextField
          label={`Type the amount (${input.amount}) to confirm`}
          value={typed}
          onChange={setTyped}
          disabled={busy}
          data-testid="typed-confirmation"
          error={typed !== '' && !typedOk ? 'This is not the amount being sent.' : undefined}
        />
      ) : null}
      {send.isError ? <ErrorNotice error={send.error} /> : null}
    </Dialog>
  );
}
