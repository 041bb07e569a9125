/**
 * The frame both tickets share: the form (checked by the app, not the browser: noValidate), the
 * submit button in the side's colour, and the result region under it, announced as it changes.
 */
import { type HTMLAttributes, type ReactNode, useLayoutEffect, useRef } from 'react';
import type { Side } from '../../../../../../shared/contract/trade';
import { Button, type ButtonProps, ErrorNotice, Notice } from '../../../../ui';

export function TicketFrame({
  label,
  testId,
  onSubmit,
  children,
  after,
}: {
  label: string;
  testId: string;
  onSubmit: () => void;
  /** The form's fields and its submit button. */
  children: ReactNode;
  /** Below the form: the result region and the review dialog. */
  after: ReactNode;
}) {
  return (
    <section className="ticket" aria-label={label} data-testid={testId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
      {after}
    </section>
  );
}

export function SubmitButton({ side, ...rest }: Omit<ButtonProps, 'type' | 'className'> & { side: Side }) {
  return <Button type="submit" className={side === 'buy' ? 'ticket-submit-buy' : 'ticket-submit-sell'} {...rest} />;
}

/**
 * The placement's error first, then what the ticket knows of what it placed. When something appears
 * in it, it is scrolled into view: under a tall ticket (a stop-loss) it would start below the
 * window's edge, and the person would not see what became of the order.
 */
export function TicketResult({ testId, error, children }: { testId: string; error: unknown; children: ReactNode }) {
  const region = useRef<HTMLDivElement>(null);
  const shown = useRef(false);
  useLayoutEffect(() => {
    const element = region.current;
    const now = element !== null && element.childElementCount > 0;
    if (now && !shown.current) element.scrollIntoView?.({ block: 'nearest' });
    shown.current = now;
  });
  return (
    <div aria-live="polite" data-testid={testId} ref={region}>
      {error ? <ErrorNotice error={error} compact /> : null}
      {children}
    </div>
  );
}

/** One notice of the result region: a title and its lines (data-* attributes pass through for tests). */
export function ResultNotice({
  tone,
  heading,
  lines,
  ...rest
}: Omit<HTMLAttributes<HTMLDivElement>, 'className' | 'children'> & {
  tone?: 'good' | 'warn' | 'bad' | undefined;
  heading: ReactNode;
  /** Each a line of its own; an absent one (null, false) is left out. */
  lines: readonly ReactNode[];
}) {
  return (
    <Notice tone={tone ?? 'neutral'} title={heading} {...rest}>
      {lines.map((line, i) =>
        line === null || line === undefined || line === false ? null : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed per notice.
          <div key={i} className="notice-text">
            {line}
          </div>
        ),
      )}
    </Notice>
  );
}
