/**
 * "View on <explorer>" for an address or a transaction id (shared/platform/explorers.ts). The window
 * never navigates away, so the link is opened by main (`app.openExternal`, https on the explorers'
 * hosts only) in the person's browser. Where main cannot open one (a headless run, no browser), the
 * link is copied instead, and the button says which happened: "Opened in your browser" or
 * "Link copied". A chain without a known explorer shows nothing.
 */

import { useEffect, useState } from 'react';
import { type ExplorerTarget, explorerFor, explorerUrl } from '../../../shared/platform/explorers';
import { call } from '../lib/desk';
import { copyText } from './CopyButton';
import { ExternalLink } from './icons';
import './ExplorerLink.css';

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'opened' }
  | { readonly kind: 'copied' }
  | { readonly kind: 'failed'; readonly message: string };

export interface ExplorerLinkProps {
  /** The platform's chain code (ETH, TRX, …). */
  readonly chain: string | undefined;
  readonly target: ExplorerTarget;
  readonly id: string;
  readonly testId?: string;
  /** Icon only (table cells); the words are its accessible name and tooltip. */
  readonly compact?: boolean;
}

const DONE_MS = 4000;

export const ExplorerLink = ({ chain, target, id, testId, compact = false }: ExplorerLinkProps) => {
  const [state, setState] = useState<State>({ kind: 'idle' });
  useEffect(() => {
    if (state.kind === 'idle' || state.kind === 'busy') return undefined;
    const timer = setTimeout(() => setState({ kind: 'idle' }), DONE_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const explorer = explorerFor(chain);
  const url = explorerUrl(chain, target, id);
  if (!explorer || !url) return null;
  const what = target === 'tx' ? 'transaction' : 'address';
  const words = `View ${what} on ${explorer.name}`;
  const open = async () => {
    setState({ kind: 'busy' });
    try {
      const result = await call('app.openExternal', { url });
      if (result.opened) {
        setState({ kind: 'opened' });
        return;
      }
    } catch (error) {
      // Refused or unavailable: the link is still worth having; copy it and say so below.
      if (!(await copyText(url))) {
        setState({ kind: 'failed', message: error instanceof Error ? error.message : 'Could not open the link.' });
        return;
      }
      setState({ kind: 'copied' });
      return;
    }
    setState(
      (await copyText(url)) ? { kind: 'copied' } : { kind: 'failed', message: 'Could not open or copy the link.' },
    );
  };
  return (
    <span className="explorer-link" data-testid={testId} data-url={url}>
      <button
        type="button"
        className="link-button explorer-link-button"
        title={compact ? `${words} (${url})` : url}
        aria-label={compact ? words : undefined}
        disabled={state.kind === 'busy'}
        onClick={(event) => {
          // Inside a clickable table row: open the link, do not select the row.
          event.stopPropagation();
          void open();
        }}
      >
        <ExternalLink className="icon" aria-hidden="true" focusable="false" size={14} />
        {compact ? null : <span>{words}</span>}
      </button>
      <span className="explorer-link-result muted" role="status">
        {state.kind === 'opened'
          ? 'Opened in your browser'
          : state.kind === 'copied'
            ? 'Link copied — paste it in your browser'
            : state.kind === 'failed'
              ? state.message
              : ''}
      </span>
    </span>
  );
};
