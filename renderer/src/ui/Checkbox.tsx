import { useId } from 'react';
import './fields.css';

/** A checkbox with its label on the right and an optional hint under it. */
export const Checkbox = ({
  label,
  hint,
  checked,
  onChange,
  disabled = false,
  testId,
  hideLabel = false,
}: {
  readonly label: string;
  /** The label is for assistive technology only (a row's checkbox whose row already names it). */
  readonly hideLabel?: boolean;
  readonly hint?: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly disabled?: boolean;
  readonly testId?: string;
}) => {
  const id = useId();
  return (
    <div className="field field-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </label>
      {hint ? (
        <div id={`${id}-hint`} className="field-hint">
          {hint}
        </div>
      ) : null}
    </div>
  );
};
