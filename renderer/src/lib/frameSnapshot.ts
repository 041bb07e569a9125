/**
 * The frame's first paint comes before the core answers (the window, the sandbox and the core start
 * at the same time): what the frame showed the last time the app ran is kept in this origin's
 * localStorage and shown as a placeholder until the real answer replaces it — the query still reads
 * at once. Only what cannot mislead is kept: the profiles' names and which one is active. Never a
 * balance (a stale number shown as current would be a silently wrong number) and never who is
 * signed in (the core starts signed out).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { DeskOperation } from '../../../shared/contract';

const STORAGE_KEY = 'treasury-desk.frame-snapshot';

/** The reads the frame paints from a snapshot. */
export const SNAPSHOT_OPERATIONS: readonly DeskOperation[] = ['profiles.list'];

type Snapshot = Partial<Record<DeskOperation, unknown>>;

const read = (storage: Storage): Snapshot => {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Snapshot) : {};
  } catch {
    return {};
  }
};

/** Gives `client` the last run's answers as placeholders, and keeps this run's for the next. */
export const paintFrameFromSnapshot = (client: QueryClient, storage: Storage = window.localStorage): void => {
  let snapshot = read(storage);
  for (const operation of SNAPSHOT_OPERATIONS) {
    const data = snapshot[operation];
    if (data !== undefined) client.setQueryDefaults([operation], { placeholderData: data });
  }
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const operation = event.query.queryKey[0] as DeskOperation;
    if (!SNAPSHOT_OPERATIONS.includes(operation)) return;
    snapshot = { ...snapshot, [operation]: event.query.state.data };
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(snapshot));
    } catch {
      // A full or refused storage only means no snapshot next time.
    }
  });
};
