/**
 * Every page of a paged platform list (e.g. GET /wallet/sub_account_balances, 100 per page): the
 * first page alone, then the next ones a few at a time rather than one after another (1,000
 * sub-accounts are 11 pages). The rate limiter paces them, so asking in parallel never meets a
 * 429; a short page ends the list. Pages come back in order.
 */
export interface PagedRead<T> {
  /** Reads page `page` (1-based). */
  readonly read: (page: number) => Promise<readonly T[]>;
  readonly pageSize: number;
  /** A guard against a platform that never stops paging. */
  readonly maxPages: number;
  /** Pages asked for at once after the first (default 4). */
  readonly concurrency?: number;
}

export const readAllPages = async <T>({ read, pageSize, maxPages, concurrency = 4 }: PagedRead<T>): Promise<T[]> => {
  const first = await read(1);
  const all = [...first];
  if (first.length < pageSize) return all;
  for (let next = 2; next <= maxPages; next += concurrency) {
    const pages = Array.from({ length: Math.min(concurrency, maxPages - next + 1) }, (_, i) => next + i);
    const batch = await Promise.all(pages.map((page) => read(page)));
    for (const items of batch) {
      all.push(...items);
      if (items.length < pageSize) return all;
    }
  }
  return all;
};
