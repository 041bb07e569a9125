/**
 * Edits a key's IP whitelist: one IPv4 address per row, each checked as it is typed, at most 20.
 * The list is always sent whole (the platform drops it when it is omitted), so what is shown here
 * is exactly what the key will have.
 */
import { useId } from 'react';
import { MAX_WHITELIST, whitelistProblems } from '../../../../../shared/contract/keys';
import { Button, FieldError, TextField } from '../../../ui';

export interface IpWhitelistEditorProps {
  readonly value: readonly string[];
  readonly onChange: (next: string[]) => void;
  /** Show problems of empty rows too (after a submit attempt). */
  readonly showAll?: boolean;
  /** Problems of rows the form holds (its schema's or main's refusal, e.g. `ipWhitelist.2`), by index. */
  readonly errors?: ReadonlyMap<number, string>;
  /** A problem of the whole list from the form (main's refusal). */
  readonly listError?: string | undefined;
}

export const IpWhitelistEditor = ({ value, onChange, showAll = false, errors, listError }: IpWhitelistEditorProps) => {
  const legendId = useId();
  const problems = whitelistProblems(value);
  const replace = (index: number, text: string) => onChange(value.map((entry, i) => (i === index ? text : entry)));
  const remove = (index: number) => onChange(value.filter((_, i) => i !== index));
  const full = value.length >= MAX_WHITELIST;
  return (
    <fieldset className="ip-editor" aria-describedby={`${legendId}-hint`} data-testid="ip-whitelist-editor">
      <legend id={legendId}>IP whitelist</legend>
      <p id={`${legendId}-hint`} className="field-hint">
        Single IPv4 addresses only (no ranges), at most {MAX_WHITELIST}. With an empty list the key works from any
        address, but it expires 90 days after creation.
      </p>
      {value.length === 0 ? <p className="muted">No addresses: the key is not bound to an IP.</p> : null}
      <ol className="ip-editor-list">
        {value.map((entry, index) => {
          const problem = problems.entries.get(index);
          // Each row's problem once: the rule as it is typed, else what the form (or main) said about it.
          const visible =
            problem !== undefined && (showAll || entry.trim() !== '') ? problem : (errors?.get(index) ?? undefined);
          return (
            // Rows are positional: an address may repeat while being typed, so the index is the identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="ip-editor-row">
              <TextField
                label={`IP address ${index + 1}`}
                value={entry}
                onChange={(text) => replace(index, text)}
                error={visible}
                placeholder="203.0.113.7"
                inputMode="decimal"
              />
              <Button
                size="sm"
                variant="ghost"
                onClick={() => remove(index)}
                aria-label={`Remove IP address ${index + 1}`}
              >
                Remove
              </Button>
            </li>
          );
        })}
      </ol>
      <FieldError message={problems.list ?? listError} />
      <Button size="sm" onClick={() => onChange([...value, ''])} disabled={full}>
        Add address
      </Button>
      <span className="muted" aria-live="polite">
        {' '}
        {value.length} of {MAX_WHITELIST}
      </span>
    </fieldset>
  );
};
