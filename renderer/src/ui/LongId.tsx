/**
 * A long identifier (address, transaction id) shown in groups of four so people can compare it
 * character by character — grouped by layout only. Each group is its own element and the gap is a
 * CSS margin: the text holds no space, so a manual selection and copy, `textContent` and the copy
 * button all give exactly the identifier the platform needs. A `<wbr>` between groups lets a long
 * one wrap at a group boundary without adding a character.
 */
import { Fragment, memo } from 'react';
import './LongId.css';

/** The groups of `size` characters a long identifier is shown in (the last may be shorter). */
export const groupsOf = (value: string, size = 4): string[] => value.match(new RegExp(`.{1,${size}}`, 'gsu')) ?? [];

export interface LongIdProps {
  readonly value: string;
  readonly testId?: string;
  /** Extra class names (e.g. "address-full" for a large review display). */
  readonly className?: string;
  /** Characters per group (default 4). */
  readonly size?: number;
}

// Memoised (its props are strings): a form that re-renders per keystroke, or a table per update, lists
// many of these, each two elements per group of four characters.
export const LongId = memo(function LongId({ value, testId, className, size = 4 }: LongIdProps) {
  return (
    <code className={`long-id${className ? ` ${className}` : ''}`} data-testid={testId} data-value={value}>
      {groupsOf(value, size).map((group, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: groups of a fixed string, the order never changes
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <span className="long-id-group">{group}</span>
        </Fragment>
      ))}
    </code>
  );
});
