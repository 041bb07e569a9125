/**
 * The platform answers record lists for at most 30 days per request and pages within that. This
 * reads a period of any length for the funding screens: the same 30-day windows as the history sync
 * (`windowsOf` of history/sync.ts, the one place windows are cut), each paged until a short page,
 * records de-duplicated by their id.
 */
import { windowsOf } from '../history/sync';

export interface Window {
  readonly from: number;
  readonly to: number;
}

export interface PagedReader<T extends { readonly id: string }> {
  readonly pageSize: number;
  readonly read: (window: Window, offset: number, limit: number) => Promise<T[]>;
  /** Safety stop against a platform that never returns a short page. */
  readonly maxPagesPerWindow?: number;
}

export const readAllWindows = async <T extends { readonly id: string }>(
  from: number,
  to: number,
  reader: PagedReader<T>,
): Promise<T[]> => {
  const seen = new Map<string, T>();
  const maxPages = reader.maxPagesPerWindow ?? 200;
  if (from > to) return [];
  for (const window of windowsOf([{ from, to }])) {
    for (let page = 0; page < maxPages; page++) {
      const records = await reader.read(window, page * reader.pageSize, reader.pageSize);
      for (const record of records) seen.set(record.id, record);
      if (records.length < reader.pageSize) break;
    }
  }
  return [...seen.values()];
};
