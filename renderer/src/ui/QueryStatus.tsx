/**
 * The loading and failure states of a read, the same on every screen: a spinner while the first
 * answer is awaited, the error in plain words with Retry when it failed. Renders nothing once the
 * data is there (the screen renders that, including its empty state).
 */
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Loading';

/** What QueryStatus reads from a react-query result (useDeskQuery returns one). */
export interface QueryLike {
  readonly isPending: boolean;
  readonly isError: boolean;
  readonly error: unknown;
  refetch(): unknown;
}

export const QueryStatus = ({
  query,
  loading,
  compact = false,
}: {
  readonly query: QueryLike;
  /** What is being loaded, e.g. "Loading deposits…". */
  readonly loading?: string;
  readonly compact?: boolean;
}) => (
  <>
    {query.isPending ? <Loading {...(loading ? { label: loading } : {})} /> : null}
    {query.isError ? <ErrorNotice error={query.error} compact={compact} onRetry={() => void query.refetch()} /> : null}
  </>
);
