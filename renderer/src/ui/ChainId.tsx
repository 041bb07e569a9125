/**
 * An on-chain identifier wherever it is shown: the address or transaction id in groups of four
 * (LongId: no space in the text), a copy button that copies exactly it, and the chain's explorer
 * link (ExplorerLink; nothing when the chain has no known explorer).
 */
import type { ReactNode } from 'react';
import type { ExplorerTarget } from '../../../shared/platform/explorers';
import { CopyButton } from './CopyButton';
import { ExplorerLink } from './ExplorerLink';
import { LongId } from './LongId';

export interface ChainIdProps {
  readonly chain: string | undefined;
  readonly target: ExplorerTarget;
  readonly value: string;
  /** Prefix of the test ids: `<testId>` (the text), `<testId>-copy`, `<testId>-explorer`. */
  readonly testId?: string;
  /** Extra class names of the text (e.g. "address-full"). */
  readonly className?: string;
  /** Without the explorer link (e.g. a table cell where the detail below has it). */
  readonly noExplorer?: boolean;
}

/** "abcdef…1234": how a table cell shows a long id (the copy button and the link use the whole one). */
export const abbreviate = (value: string, head = 6, tail = 4): string =>
  value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;

/** A table cell for a long id (a client id, a platform id): abbreviated, whole in the tooltip, with copy. */
export const IdCell = ({
  value,
  what,
  testId,
  children,
}: {
  readonly value: string | undefined;
  /** What it is, for the copy button's name ("client id"). */
  readonly what: string;
  readonly testId?: string;
  /** More actions after the copy button (an explorer link). */
  readonly children?: ReactNode;
}) => {
  if (!value) return <span className="muted">—</span>;
  return (
    <span className="id-actions" data-testid={testId}>
      <code title={value}>{abbreviate(value)}</code>
      <CopyButton value={value} label={`Copy ${what}`} />
      {children}
    </span>
  );
};

/** A table cell: the id abbreviated (its whole value in the tooltip), copy and an icon-only explorer link. */
export const ChainIdCell = ({
  chain,
  target,
  value,
  testId,
}: {
  readonly chain: string | undefined;
  readonly target: ExplorerTarget;
  readonly value: string | undefined;
  readonly testId?: string;
}) => {
  if (!value) return <span className="muted">—</span>;
  return (
    <IdCell value={value} what={target === 'tx' ? 'transaction id' : 'address'} {...(testId ? { testId } : {})}>
      <ExplorerLink chain={chain} target={target} id={value} compact />
    </IdCell>
  );
};

export const ChainId = ({ chain, target, value, testId, className, noExplorer = false }: ChainIdProps) => {
  const what = target === 'tx' ? 'transaction id' : 'address';
  return (
    <span className="chain-id">
      <LongId value={value} {...(testId ? { testId } : {})} {...(className ? { className } : {})} />
      <span className="id-actions">
        <CopyButton value={value} label={`Copy ${what}`} {...(testId ? { testId: `${testId}-copy` } : {})} />
        {noExplorer ? null : (
          <ExplorerLink
            chain={chain}
            target={target}
            id={value}
            {...(testId ? { testId: `${testId}-explorer` } : {})}
          />
        )}
      </span>
    </span>
  );
};
