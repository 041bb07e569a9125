import { useEffect, useState } from 'react';
import { Check, Copy } from './icons';

/** Copies through the async clipboard, falling back to a selection copy where it is refused. */
export const copyText = async (value: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = value;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
};

export interface CopyButtonProps {
  readonly value: string;
  /** Accessible name, e.g. "Copy address". */
  readonly label?: string;
  readonly testId?: string;
  /** Inside a Dialog: this button takes the first focus (Dialog looks for data-autofocus). */
  readonly autoFocus?: boolean;
}

export const CopyButton = ({ value, label = 'Copy', testId, autoFocus }: CopyButtonProps) => {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm copy-button"
      aria-label={label}
      title={label}
      data-testid={testId}
      data-autofocus={autoFocus || undefined}
      data-state={state}
      onClick={async (event) => {
        // Inside a clickable table row: copy, do not select the row.
        event.stopPropagation();
        setState((await copyText(value)) ? 'copied' : 'failed');
      }}
    >
      {/* SVG, never a font glyph (a missing glyph is an empty box); the accessible name is the label. */}
      {state === 'copied' ? (
        <Check className="icon" aria-hidden="true" focusable="false" size={14} />
      ) : (
        <Copy className="icon" aria-hidden="true" focusable="false" size={14} />
      )}
      <span className="sr-only" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : ''}
      </span>
    </button>
  );
};
