import type { IpcError, IpcErrorCode } from '../../../shared/ipc/result';
import { isDeskCallError } from '../lib/desk';
import { isFormRefusal } from '../lib/formErrors';
import { Button } from './Button';
import { CopyButton } from './CopyButton';
import './Notice.css';

/** What each kind of failure means for the person at the screen. */
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
  AWAITING_APPROVAL: 'This needs another operator’s approval. It waits in Approvals; nothing was sent yet.',
  NOT_ALLOWED: 'Your role does not allow this.',
  INTERNAL: 'Something went wrong inside the app.',
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

export interface ErrorNoticeProps {
  readonly error: unknown;
  /** Offered for reads; never pass it for money movements (a blind retry could send twice). */
  readonly onRetry?: () => void;
  readonly compact?: boolean;
}

/**
 * A failure in plain words, with the platform's label, the request id and advice when known. A
 * form's banner (`FormRefusal`, lib/formErrors.ts) lists only the field problems the form could not
 * show at a field, and names the fields it highlighted. Main's message and advice are shown as main
 * said them.
 */
export const ErrorNotice = ({ error, onRetry, compact = false }: ErrorNoticeProps) => {
  const detail = isDeskCallError(error) ? error.error : undefined;
  const headline = detail ? (DELIVERY_HEADLINE(detail) ?? HEADLINE[detail.code]) : 'Something went wrong.';
  const message = detail?.message ?? (error instanceof Error ? error.message : String(error));
  const highlighted = isFormRefusal(error) ? error.highlighted : [];
  const advice = detail?.advice;
  return (
    <div
      className={`notice notice-bad${compact ? ' notice-compact' : ''}`}
      role="alert"
      data-testid="error-notice"
      data-error-code={detail?.code}
    >
      <div className="notice-title">{headline}</div>
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
        <dl className="notice-meta">
          {detail.label ? (
            <>
              <dt>Platform label</dt>
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
      ) : null}
      {onRetry ? (
        <div className="notice-actions">
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
};
