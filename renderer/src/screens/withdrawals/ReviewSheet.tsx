/**
 * The last look before a withdrawal leaves: every field in full (the address in groups of four so
 * it can be compared character by character; the groups are layout only, a copy has no spaces), the fee and the net amount, a badge when the address
 * was never used before, and a typed confirmation of the amount above the configured threshold.
 * Opening the sheet makes the confirmation's request key: every click of "Send" carries it, so a
 * double click, a re-render or a retry is the same withdrawal for main (and only one call is let
 * through at a time). Sending is disabled while the request is in flight and after it was accepted;
 * a withdrawal the policy holds for an approver is queued under that key, and the sheet closes
 * (`onQueued`): one intent, one approval item.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type CurrencyChainInfo,
  destinationKey,
  type SavedAddress,
  type WithdrawDetails,
  type WithdrawResult,
} from '../../../../shared/contract/funding';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { applyWithdrawal, countWithdrawalTo } from '../../lib/eventCache';
import { formatMoney } from '../../lib/format';
import { Badge, Button, ChainId, Dialog, ErrorNotice, RetryCountdown, TextField } from '../../ui';
import { newConfirmation, nothingMoved, useSingleFlight } from './confirmation';
import { FeeEstimateNote } from './FeeEstimateNote';
import { needsTypedConfirmation, typedAmountMatches, type WithdrawQuote } from './withdrawMath';

export interface ReviewSheetProps {
  readonly input: WithdrawDetails;
  readonly chain: CurrencyChainInfo;
  readonly quote: WithdrawQuote;
  /** The saved entry chosen; shown only if its (chain, address, memo) is exactly what is sent. */
  readonly saved: SavedAddress | undefined;
  readonly onClose: () => void;
  readonly onSent: (result: WithdrawResult) => void;
  /** It waits in Approvals (AWAITING_APPROVAL, nothing sent yet): main's words, for the form to keep showing. */
  readonly onQueued: (message: string) => void;
  /**
   * A refusal of "Send": the form puts what names its fields there (lib/formErrors.ts) and returns
   * what is left for this sheet's one banner (undefined: nothing left). Without it, the whole error.
   */
  readonly onRefused?: (error: unknown) => unknown;
}

/** Never sent to this destination, or it is not a saved entry: the review warns and the form offers a test amount. */
export const firstWithdrawalTo = (saved: SavedAddress | undefined): boolean =>
  saved === undefined || saved.previousWithdrawals === 0;

export function ReviewSheet({
  input,
  chain,
  quote,
  saved: chosen,
  onClose,
  onSent,
  onQueued,
  onRefused,
}: ReviewSheetProps) {
  const saved =
    chosen &&
    destinationKey(chosen.chain, chosen.address, chosen.tag) === destinationKey(input.chain, input.address, input.memo)
      ? chosen
      : undefined;
  const policy = useDeskQuery(['funding.reviewPolicy', {}]);
  const [typed, setTyped] = useState('');
  // The one banner of a refusal: what the form could not put at a field.
  const [banner, setBanner] = useState<unknown>();
  // The key of this confirmation: made when the sheet opens, new if what it shows ever changes.
  const [confirmation, setConfirmation] = useState(() => newConfirmation(input));
  if (JSON.stringify(confirmation.details) !== JSON.stringify(input)) setConfirmation(newConfirmation(input));
  const singleFlight = useSingleFlight();
  const client = useQueryClient();
  const send = useDeskMutation('funding.withdraw', {
    // The balance and the day's remaining limit moved: read again. The record main answered with
    // goes into the lists and the address counts one more use (lib/eventCache.ts): not read again.
    invalidates: ['balances.spot', 'funding.withdrawRules'],
    onSuccess: (result, input) => {
      if (result.record) applyWithdrawal(client, result.record);
      countWithdrawalTo(client, input);
      onSent(result);
    },
  });
  // Until the policy is known, ask for the typed confirmation (the safe side).
  const mustType = needsTypedConfirmation(input.amount, input.currency, policy.data?.typedConfirmAbove ?? {});
  const typedOk = !mustType || typedAmountMatches(typed, input.amount);
  const firstTime = firstWithdrawalTo(saved);
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
            // After success, when queued for approval, or when the outcome is unknown, sending again could pay twice.
            disabled={
              !typedOk ||
              send.isSuccess ||
              send.error?.code === 'OUTCOME_UNKNOWN' ||
              send.error?.code === 'AWAITING_APPROVAL'
            }
            onClick={() =>
              singleFlight(confirmation.requestKey, (done) =>
                send.mutate(
                  { ...confirmation.details, requestKey: confirmation.requestKey },
                  {
                    onSettled: done,
                    // Refused, nothing moved: a deliberate new click is a new withdrawal.
                    onError: (error) => {
                      // Queued for an approver under this key: the review is over.
                      if (error.code === 'AWAITING_APPROVAL') {
                        onQueued(error.advice ? `${error.message} ${error.advice}` : error.message);
                        return;
                      }
                      if (nothingMoved(error.error)) setConfirmation(newConfirmation(confirmation.details));
                      setBanner(onRefused ? onRefused(error) : error);
                    },
                  },
                ),
              )
            }
            data-testid="withdraw-send"
          >
            Send {formatMoney(input.amount, input.currency)}
          </Button>
        </>
      }
    >
      <dl className="review-list">
        <dt>Amount</dt>
        <dd data-testid="review-amount">{formatMoney(input.amount, input.currency)}</dd>
        <dt>Network</dt>
        <dd data-testid="review-network">
          {chain.chain}
          {chain.nameEn && chain.nameEn !== chain.chain ? ` (${chain.nameEn})` : ''}
        </dd>
        <dt>To address</dt>
        <dd>
          <ChainId
            chain={input.chain}
            target="address"
            value={input.address}
            className="address-full"
            testId="review-address"
          />
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
        <dd data-testid="review-fee">{formatMoney(quote.fee, input.currency)}</dd>
        <dt>Recipient gets</dt>
        <dd data-testid="review-net">
          <strong>{formatMoney(quote.net, input.currency)}</strong>
        </dd>
        <dt>Taken from spot balance</dt>
        <dd data-testid="review-debit">{formatMoney(quote.debit, input.currency)}</dd>
      </dl>
      <FeeEstimateNote />
      {firstTime ? (
        <p className="notice notice-warn">
          You have not sent to this address from here before. Compare the whole address with the one you expect; for a
          large amount consider sending a small test amount first.
        </p>
      ) : null}
      {mustType ? (
        <TextField
          label={`Type the amount (${formatMoney(input.amount, input.currency)}) to confirm`}
          value={typed}
          onChange={setTyped}
          disabled={busy}
          data-testid="typed-confirmation"
          error={typed !== '' && !typedOk ? 'This is not the amount being sent.' : undefined}
        />
      ) : null}
      {send.isError && banner ? <ErrorNotice error={banner} /> : null}
      {send.isError ? <RetryCountdown error={send.error} /> : null}
    </Dialog>
  );
}
