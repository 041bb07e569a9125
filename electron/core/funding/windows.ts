/**
 * The platform answers record lists for at most 30 days per request and pages within that. These
 * helpers read a period of any length: consecutive 30-day windows, each paged until a short page,
 * records de-duplicated by their id (a record on a window boundary can appear in both).
 */

export const WINDOW_SECONDS = 30 * 86_400;

export interface Window {
  readonly from: number;
  readonly to: number;
}

/** Consecutive windows covering [from, to], newest first (what people look at first arrives first). */
export const windowsOf = (from: number, to: number, size = WINDOW_SECONDS): Window[] => {
  if (from > to) return [];
  const windows: Window[] = [];
  for (let end = to; end > from; end -= size) windows.push({ from: Math.max(from, end - size), to: end });
  if (windows.length === 0) windows.push({ from, to });
  return windows;
};

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
  for (const window of windowsOf(from, to)) {
    for (let page = 0; page < maxPages; page++) {
      const records = await reader.read(window, page * reader.pageSize, reader.pageSize);
      for (const record of records) seen.set(record.id, record);
      if (records.length < reader.pageSize) break;
    }
  }
  return [...seen.values()];
};
