import { Fragment, type ReactNode } from 'react';

export interface Detail {
  readonly label: string;
  readonly value: ReactNode;
  /** On the value (`<dd>`). */
  readonly testId?: string;
}

/**
 * A record's details as label/value rows (a `<dl>`). Rows given as `false`, `null` or `undefined`
 * are left out, so a field the record may lack is written `record.memo ? { … } : null` in place.
 * `facts`: a record's details on a page; `review`: what a confirmation is about to send.
 */
export const DetailsList = ({
  rows,
  variant = 'facts',
}: {
  readonly rows: readonly (Detail | false | null | undefined)[];
  readonly variant?: 'facts' | 'review';
}) => (
  <dl className={variant === 'review' ? 'review-list' : 'facts'}>
    {rows.map((row) =>
      row ? (
        <Fragment key={row.label}>
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </Fragment>
      ) : null,
    )}
  </dl>
);
