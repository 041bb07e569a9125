import { type SelectHTMLAttributes, useId } from 'react';
import { FieldError } from './FieldError';
import './fields.css';

export interface SelectOption<V extends string> {
  readonly value: V;
  readonly label: string;
  readonly disabled?: boolean;
}

export interface SelectProps<V extends string>
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  readonly label: string;
  readonly value: V;
  readonly options: readonly SelectOption<V>[];
  readonly onChange: (value: V) => void;
  readonly error?: string | undefined;
  /** Marks the field invalid without a message of its own (a banner names it: lib/formErrors.ts). */
  readonly invalid?: boolean | undefined;
  readonly hideLabel?: boolean;
}

export const Select = <V extends string>({
  label,
  value,
  options,
  onChange,
  error,
  invalid,
  hideLabel,
  id,
  className,
  ...rest
}: SelectProps<V>) => {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  return (
    <div className={['field', error || invalid ? 'field-invalid' : '', className].filter(Boolean).join(' ')}>
      <label htmlFor={selectId} className={hideLabel ? 'sr-only' : 'field-label'}>
        {label}
      </label>
      <div className="field-control">
        <select
          {...rest}
          id={selectId}
          value={value}
          onChange={(event) => onChange(event.target.value as V)}
          aria-invalid={error || invalid ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <FieldError message={error} id={errorId} />
    </div>
  );
};
