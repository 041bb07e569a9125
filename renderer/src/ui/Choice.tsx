import type { ReactNode } from 'react';

/**
 * One option of a radio-card list (`.choice-list`, styles/app.css): its title, what follows it
 * (badges), and — when it cannot be chosen — why, shown under it with the radio disabled.
 */
export function Choice({
  name,
  value,
  checked,
  why,
  onChoose,
  testId,
  title,
  children,
}: {
  /** The radio group's name. */
  readonly name: string;
  readonly value: string;
  readonly checked: boolean;
  /** Why this option cannot be chosen; undefined when it can. */
  readonly why: string | undefined;
  readonly onChoose: () => void;
  readonly testId: string;
  readonly title: ReactNode;
  readonly children?: ReactNode;
}) {
  return (
    <label className={`choice${why ? ' choice-disabled' : ''}`} data-testid={testId}>
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={why !== undefined}
        onChange={onChoose}
      />
      <span className="choice-title">{title}</span>
      {children}
      {why ? <span className="choice-note">{why}</span> : null}
    </label>
  );
}
