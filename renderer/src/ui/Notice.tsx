import type { HTMLAttributes, ReactNode } from 'react';
import type { Tone } from './Badge';
import './Notice.css';

export interface NoticeProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  /**
   * What kind of message it is: `bad` a failure or refusal, `warn` something to act on or beware of,
   * `good` a success, `info` an outcome that is neither (queued for approval), `neutral` a remark.
   */
  readonly tone?: Tone;
  /** The one sentence that says what happened, in bold; the children say the rest. */
  readonly title?: ReactNode;
  /** Buttons or links under the text. */
  readonly actions?: ReactNode;
  readonly compact?: boolean;
}

/**
 * A message in the flow of a screen (not a toast): one title, the text, optional actions. The
 * tone decides the colour of its edge and background; the role (alert, status, note) is the
 * caller's, since only the caller knows whether it must be announced.
 */
export const Notice = ({
  tone = 'neutral',
  title,
  actions,
  compact = false,
  className,
  children,
  ...rest
}: NoticeProps) => (
  <div
    {...rest}
    className={['notice', `notice-${tone}`, compact ? 'notice-compact' : '', className].filter(Boolean).join(' ')}
    data-tone={tone}
  >
    {title ? <div className="notice-title">{title}</div> : null}
    {children}
    {actions ? <div className="notice-actions">{actions}</div> : null}
  </div>
);
