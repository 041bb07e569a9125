import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { FieldError } from './FieldError';
import './fields.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Shown under the field and announced; marks the field invalid. */
  readonly error?: string | undefined;
  /** Marks the field invalid without a message of its own (a banner names it: lib/formErrors.ts). */
  readonly invalid?: boolean | undefined;
  readonly hint?: ReactNode;
  /** Text after the input, e.g. the currency. */
  readonly suffix?: ReactNode;
  /** Hide the label visually (it stays for screen readers). */
  readonly hideLabel?: boolean;
}

export const TextField = ({
  label,
  value,
  onChange,
  error,
  invalid,
  hint,
  suffix,
  hideLabel,
  id,
  className,
  ...rest
}: TextFieldProps) => {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error || invalid ? 'field-invalid' : '', className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={hideLabel ? 'sr-only' : 'field-label'}>
        {label}
      </label>
      <div className="field-control">
        <input
          autoComplete="off"
          spellCheck={false}
          {...rest}
          id={inputId}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={describedBy}
        />
        {suffix ? <span className="field-suffix">{suffix}</span> : null}
      </div>
      {hint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
      <FieldError message={error} id={errorId} />
    </div>
  );
};
