import type { IpcError, IpcErrorCode } from '../../../shared/ipc/result';
import { isDeskCallError } from '../lib/desk';
import { isFormRefusal } from '../lib/formErrors';
import { goTo } from '../lib/navigation';
import { Button } from './Button';
import { CopyButton } from './CopyButton';
import { Notice } from './Notice';
import { Time } from './Time';

/**
 * What each kind of failure means for the person at the screen. Only PLATFORM and NETWORK are the
 * platform's: every other code is the app refusing on its own, before anything was sent.
 */
const HEADLINE: Record<IpcErrorCode, string> = {
  UNKNOWN_OPERATION: 'The app does not know this action.',
  INVALID_INPUT: 'Some details are not valid. Nothing was sent.',
  FORBIDDEN_SENDER: 'This window is not allowed to do that.',
  PLATFORM: 'The platform refused the request.',
  NETWORK: 'The platform could not be reached.',
  OUTCOME_UNKNOWN: 'We do not know yet whether this went through. It is being checked; do not repeat it.',
  JOURNAL_UNAVAILABLE: 'The app cannot record money movements right now. Nothing was sent.',
  KEYCHAIN: 'The system keychain is unavailable.',
  LOCKED: 'The app is locked. Unlock it first.',
  PRECONDITION: 'This cannot be done yet.',
  CONFIRMATION_DECLINED: 'It was not confirmed in the app’s confirmation window. Nothing was sent.',
  POLICY: 'The profile’s policy does not allow this. Nothing was sent.',
  AWAITING_APPROVAL: 'Waiting for another operator’s approval.',
  NOT_ALLOWED: 'Not allowed.',
  INTERNAL: 'Something went wrong inside the app.',
};

/** The app's own labels that say more than their code (a wrong passphrase is not a role problem). */
const LABEL_HEADLINE: Readonly<Record<string, string>> = {
  WRONG_PASSPHRASE: 'The name or the passphrase is wrong.',
  TOO_MANY_ATTEMPTS: 'Too many wrong passphrases: signing in waits a moment.',
};

/** A platform or network error whose request may have been carried out is not a refusal (`delivery`). */
const DELIVERY_HEADLINE = (detail: IpcError): string | undefined => {
  if (detail.delivery === 'executed')
    return 'The platform accepted it, but its answer could not be read. Check before doing it again.';
  if (detail.delivery === 'unknown' && (detail.code === 'PLATFORM' || detail.code === 'NETWORK')) {
    return 'The platform did not confirm whether it was done. Check before doing it again.';
  }
  return undefined;
};

const headlineOf = (detail: IpcError): string =>
  DELIVERY_HEADLINE(detail) ?? (detail.label ? LABEL_HEADLINE[detail.label] : undefined) ?? HEADLINE[detail.code];

/** Whose words the label is: the platform's (PLATFORM, NETWORK) or the app's own refusal. */
const isPlatforms = (detail: IpcError): boolean => detail.code === 'PLATFORM' || detail.code === 'NETWORK';

export interface ErrorNoticeProps {
  readonly error: unknown;
  /** Offered for reads; never pass it for money movements (a blind retry could send twice). */
  readonly onRetry?: () => void;
  readonly compact?: boolean;
}

/**
 * Queued for approval is an outcome, not a failure: one sentence, when it expires, and the way to
 * the Approvals queue (where another operator decides).
 */
const QueuedForApproval = ({ detail, compact }: { detail: IpcError; compact: boolean }) => (
  <Notice
    tone="info"
    compact={compact}
    role="status"
    data-testid="queued-for-approval"
    title="Waiting for another operator’s approval: nothing was sent yet."
    actions={
      <Button size="sm" onClick={() => goTo('approvals')} data-testid="queued-open-approvals">
        Open Approvals
      </Button>
    }
  >
    {detail.approval ? (
      <div className="notice-text">
        {detail.approval.reasons.join(' ')} It expires <Time ms={detail.approval.expiresAt} withZone />.
      </div>
    ) : (
      <div className="notice-text">{detail.message}</div>
    )}
  </Notice>
);

/**
 * A failure in plain words, with advice when known; the code, the label and the request id are
 * inside "Details" (for support), never in the sentence. A form's banner (`FormRefusal`,
 * lib/formErrors.ts) lists only the field problems the form could not show at a field, and names the
 * fields it highlighted. Main's message and advice are shown as main said them.
 */
export const ErrorNotice = ({ error, onRetry, compact = false }: ErrorNoticeProps) => {
  const detail = isDeskCallError(error) ? error.error : undefined;
  if (detail?.code === 'AWAITING_APPROVAL') return <QueuedForApproval detail={detail} compact={compact} />;
  const headline = detail ? headlineOf(detail) : 'Something went wrong.';
  const message = detail?.message ?? (error instanceof Error ? error.message : String(error));
  const highlighted = isFormRefusal(error) ? error.highlighted : [];
  const advice = detail?.advice;
  return (
    <Notice
      tone="bad"
      compact={compact}
      role="alert"
      data-testid="error-notice"
      data-error-code={detail?.code}
      title={headline}
      actions={
        onRetry ? (
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    >
      {message && message !== headline ? <div className="notice-text">{message}</div> : null}
      {detail?.fields && Object.keys(detail.fields).length > 0 ? (
        <ul className="notice-fields">
          {Object.entries(detail.fields).map(([field, problem]) => (
            <li key={field}>
              <code>{field}</code>: {problem}
            </li>
          ))}
        </ul>
      ) : null}
      {highlighted.length > 0 ? (
        <div className="notice-text" data-testid="error-highlighted">
          Highlighted: {highlighted.join(', ')}.
        </div>
      ) : null}
      {advice ? <div className="notice-advice">{advice}</div> : null}
      {detail?.label || detail?.requestId ? (
        <details className="notice-details">
          <summary>Details</summary>
          <dl className="notice-meta">
            {detail.label ? (
              <>
                <dt>{isPlatforms(detail) ? 'Platform’s code' : 'App’s code'}</dt>
                <dd>
                  <code data-testid="error-label">{detail.label}</code>
                </dd>
              </>
            ) : null}
            {detail.requestId ? (
              <>
                <dt>Request id</dt>
                <dd>
                  <code data-testid="error-request-id">{detail.requestId}</code>{' '}
                  <CopyButton value={detail.requestId} label="Copy request id" />
                </dd>
              </>
            ) : null}
          </dl>
        </details>
      ) : null}
    </Notice>
  );
};
