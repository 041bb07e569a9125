/** Balance snapshots and settings, kept in the journal database. */
import { type Db, statement } from './db';
import type { BalanceSnapshot, BalanceSnapshots, Settings } from './types';

export const createSnapshots = (
  db: Db,
  activeProfileId: () => string,
  now: () => number = Date.now,
): BalanceSnapshots => {
  const upsert = statement(
    db,
    'INSERT INTO snapshots (profile_id, minute, at, currency, total, by_account) VALUES (?,?,?,?,?,?) ' +
      'ON CONFLICT(profile_id, minute) DO UPDATE SET at = excluded.at, currency = excluded.currency, total = excluded.total, by_account = excluded.by_account',
  );
  return {
    add: (s) => {
      const at = s.at ?? now();
      upsert.run(
        s.profileId ?? activeProfileId(),
        Math.floor(at / 60_000),
        at,
        s.currency,
        s.total,
        JSON.stringify(s.byAccount),
      );
    },
    list: (filter = {}) =>
      statement<
        [string, number, number],
        { profile_id: string; at: number; currency: string; total: string; by_account: string }
      >(db, 'SELECT * FROM snapshots WHERE profile_id = ? AND at >= ? AND at <= ? ORDER BY at ASC')
        .all(filter.profileId ?? activeProfileId(), filter.from ?? 0, filter.to ?? Number.MAX_SAFE_INTEGER)
        .map(
          (r): BalanceSnapshot => ({
            at: r.at,
            profileId: r.profile_id,
            currency: r.currency,
            total: r.total,
            byAccount: JSON.parse(r.by_account) as Record<string, string>,
          }),
        ),
  };
};

export const createSettings = (db: Db): Settings => {
  const read = statement<[string], { value: string }>(db, 'SELECT value FROM settings WHERE key = ?');
  const write = statement(
    db,
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  return {
    get: <T>(key: string, fallback: T): T => {
      const row = read.get(key);
      return row === undefined ? fallback : (JSON.parse(row.value) as T);
    },
    set: (key, value) => {
      write.run(key, JSON.stringify(value));
    },
  };
};
