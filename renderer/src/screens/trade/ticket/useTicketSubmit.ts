/**
 * What happens on "Buy", "Sell" or "Place …", the same in both tickets: field errors show once the
 * trader has typed in the field or tried to submit (before that, "Enter a price" on an empty field
 * would only nag); nothing is sent while a check fails or the ticket is blocked; soft warnings, or
 * the setting that every order is confirmed, open the review first; whatever is sent is remembered
 * by the duplicate guard, so the same order again within 10 s asks first (in either ticket).
 */
import { useState } from 'react';
import type { DuplicateGuard, TicketDraft } from '../../../../../shared/trade/ticket';

/** A soft warning shown in the review (ticketWarnings, or the ticket's own such as a trigger firing at once). */
export interface ReviewWarning {
  kind: string;
  message: string;
}

export interface Review<D> {
  draft: D;
  warnings: readonly ReviewWarning[];
}

export interface TicketSubmitOptions<D, F extends string> {
  /** The draft's failed checks by field; any one blocks sending. */
  errors: Partial<Record<F, string>>;
  /** Sending now would be wrong (a placement is under way, an earlier outcome is unknown). */
  blocked: boolean;
  guard: DuplicateGuard;
  /** The plain order a draft places (what the duplicate guard compares). */
  orderOf: (draft: D) => TicketDraft;
  /** Every order is reviewed before it is sent (Settings → Safety). */
  confirmEvery: boolean;
  /** The draft's soft warnings; `duplicate` says whether the guard saw the same order lately. */
  warningsOf: (draft: D, duplicate: boolean) => readonly ReviewWarning[];
  send: (draft: D) => void;
}

export const useTicketSubmit = <D, F extends string>(options: TicketSubmitOptions<D, F>) => {
  const { errors, blocked, guard, orderOf, confirmEvery, warningsOf, send } = options;
  const [submitted, setSubmitted] = useState(false);
  const [review, setReview] = useState<Review<D> | undefined>();

  const sendNow = (draft: D) => {
    setReview(undefined);
    guard.remember(orderOf(draft));
    send(draft);
  };

  return {
    review,
    /** The field's error, once it is worth showing. */
    shown: (field: F, value: string): string | undefined => (submitted || value !== '' ? errors[field] : undefined),
    submit: (draft: D) => {
      setSubmitted(true);
      if (blocked || Object.keys(errors).length > 0) return;
      const warnings = warningsOf(draft, guard.isDuplicate(orderOf(draft)));
      if (warnings.length > 0 || confirmEvery) setReview({ draft, warnings });
      else sendNow(draft);
    },
    cancelReview: () => setReview(undefined),
    confirmReview: () => {
      if (review) sendNow(review.draft);
    },
  };
};
