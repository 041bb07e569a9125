/**
 * The sandbox's SQLite database: one file under the data directory (or in memory). Every money
 * movement runs inside ONE `db.transaction(...)`, so a crash never leaves half a transfer. Balances
 * are TEXT decimal strings; CHECKs make a negative balance impossible even if code is wrong.
 * Modules with their own tables (sandbox/spot) create them with `CREATE TABLE IF NOT EXISTS` at
 * registration time.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  parent_id INTEGER REFERENCES users(id),
  login_name TEXT NOT NULL UNIQUE,
  remark TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2)),
  type INTEGER NOT NULL DEFAULT 1 CHECK (type IN (1, 3)),
  create_time INTEGER NOT NULL,
  unified_mode TEXT NOT NULL DEFAULT 'classic',
  refuse_push INTEGER NOT NULL DEFAULT 0,
  fee_tier TEXT NOT NULL DEFAULT '{}',
  -- JSON array of permission names this sub-account may not use (its business permissions).
  disabled_business TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE IF NOT EXISTS api_keys (
  key TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  secret TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  mode INTEGER NOT NULL DEFAULT 1 CHECK (mode IN (1, 2)),
  perms TEXT NOT NULL DEFAULT '[]',
  ip_whitelist TEXT NOT NULL DEFAULT '[]',
  state INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_access INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS api_keys_user ON api_keys(user_id);

CREATE TABLE IF NOT EXISTS balances (
  user_id INTEGER NOT NULL,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  pair TEXT NOT NULL DEFAULT '',
  available TEXT NOT NULL DEFAULT '0' CHECK (substr(available, 1, 1) <> '-'),
  locked TEXT NOT NULL DEFAULT '0' CHECK (substr(locked, 1, 1) <> '-'),
  update_id INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, account, currency, pair)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS ledger_entries (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  pair TEXT NOT NULL DEFAULT '',
  change TEXT NOT NULL,
  balance TEXT NOT NULL,
  type TEXT NOT NULL,
  ref TEXT NOT NULL DEFAULT '',
  time INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_entries_user ON ledger_entries(user_id, account, time);

CREATE TABLE IF NOT EXISTS transfers (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('own', 'main_sub', 'sub_sub')),
  owner_id INTEGER NOT NULL,
  from_user INTEGER NOT NULL,
  to_user INTEGER NOT NULL,
  from_account TEXT NOT NULL,
  to_account TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  currency_pair TEXT NOT NULL DEFAULT '',
  settle TEXT NOT NULL DEFAULT '',
  sub_account INTEGER,
  sub_account_type TEXT NOT NULL DEFAULT '',
  direction TEXT NOT NULL DEFAULT '',
  client_order_id TEXT,
  source TEXT NOT NULL DEFAULT 'api',
  status TEXT NOT NULL DEFAULT 'SUCCESS',
  time INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS transfers_client_id ON transfers(owner_id, client_order_id) WHERE client_order_id IS NOT NULL;
-- Only main↔sub transfers are listed by owner and time; own and sub↔sub transfers are read by id.
DROP INDEX IF EXISTS transfers_owner;
CREATE INDEX IF NOT EXISTS transfers_main_sub ON transfers(owner_id, time) WHERE kind = 'main_sub';

CREATE TABLE IF NOT EXISTS deposit_addresses (
  user_id INTEGER NOT NULL,
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  memo TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (user_id, currency, chain)
);
CREATE INDEX IF NOT EXISTS deposit_addresses_lookup ON deposit_addresses(chain, address, memo);

CREATE TABLE IF NOT EXISTS saved_addresses (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  tag TEXT NOT NULL DEFAULT '',
  verified TEXT NOT NULL DEFAULT '1' CHECK (verified IN ('0', '1'))
);
CREATE INDEX IF NOT EXISTS saved_addresses_user ON saved_addresses(user_id, currency, chain);

CREATE TABLE IF NOT EXISTS withdrawals (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  withdraw_order_id TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  memo TEXT NOT NULL DEFAULT '',
  amount TEXT NOT NULL,
  fee TEXT NOT NULL,
  status TEXT NOT NULL,
  txid TEXT NOT NULL DEFAULT '',
  block_number TEXT NOT NULL DEFAULT '',
  fail_reason TEXT NOT NULL DEFAULT '',
  asset_class TEXT NOT NULL DEFAULT '',
  timestamp INTEGER NOT NULL,
  timestamp2 INTEGER,
  internal_user_id INTEGER,
  route TEXT NOT NULL,
  next_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS withdrawals_client_id ON withdrawals(user_id, withdraw_order_id) WHERE withdraw_order_id <> '';
CREATE INDEX IF NOT EXISTS withdrawals_user ON withdrawals(user_id, timestamp);
CREATE INDEX IF NOT EXISTS withdrawals_due ON withdrawals(next_at) WHERE next_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS deposits (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  currency TEXT NOT NULL,
  chain TEXT NOT NULL,
  address TEXT NOT NULL,
  memo TEXT NOT NULL DEFAULT '',
  amount TEXT NOT NULL,
  txid TEXT NOT NULL,
  status TEXT NOT NULL,
  timestamp INTEGER NOT NULL,
  route TEXT NOT NULL,
  credited INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER
);
CREATE INDEX IF NOT EXISTS deposits_user ON deposits(user_id, timestamp);
CREATE INDEX IF NOT EXISTS deposits_due ON deposits(next_at) WHERE next_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS pushes (
  id INTEGER PRIMARY KEY,
  push_uid INTEGER NOT NULL,
  receive_uid INTEGER NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  create_time INTEGER NOT NULL,
  route TEXT NOT NULL,
  next_at INTEGER
);
CREATE INDEX IF NOT EXISTS pushes_due ON pushes(next_at) WHERE next_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS small_balance_history (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  gt_amount TEXT NOT NULL,
  create_time INTEGER NOT NULL
);
`;

/** The data directory: only its owner may enter it (it holds every account's API secret). */
const DIR_MODE = 0o700;
/** The database and its WAL/SHM/journal files: only their owner may read them. */
const FILE_MODE = 0o600;
const DB_FILE = 'sandbox.sqlite';
const SIDE_FILES = ['-wal', '-shm', '-journal'];
/** Pages the write-ahead log grows to before a checkpoint copies it into the database file. */
const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Creates the data directory private (0700) or tightens an existing one, and the database file
 * private (0600) before SQLite opens it: SQLite gives the WAL and journal files it creates later the
 * database file's own mode, so they are private too. Files left by an earlier, looser version are
 * tightened as well.
 */
function securePrivateFiles(dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  fs.chmodSync(dataDir, DIR_MODE);
  const file = path.join(dataDir, DB_FILE);
  fs.closeSync(fs.openSync(file, 'a', FILE_MODE));
  for (const name of [file, ...SIDE_FILES.map((suffix) => file + suffix)]) {
    try {
      fs.chmodSync(name, FILE_MODE);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
  }
  return file;
}

/** Opens (creating if needed) the database. `dataDir` null means in memory. */
export function openDatabase(dataDir: string | null): Db {
  const file = dataDir ? securePrivateFiles(dataDir) : ':memory:';
  // A short busy timeout: with exclusive locking only a second process could hold the file.
  const db = new Database(file, { timeout: 200 });
  if (dataDir) {
    // One process owns a data directory: the ledger remembers the balances it wrote (see ledger.ts),
    // which is only true while nobody else writes them. Exclusive locking (set before WAL, so no
    // shared memory is used) makes a second sandbox on the same directory fail at once instead.
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.pragma('journal_mode = WAL');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new Error(
          `Another sandbox is already using the data directory ${dataDir}; stop it or pick another --data.`,
        );
      }
      throw error;
    }
    // A checkpoint (copying the log into the database file) is the only step that syncs the disk,
    // twice, and it runs inside the commit that crosses the threshold, holding up every answer of
    // that turn. Every 10,000 pages (a log of up to ~40 MB) instead of SQLite's 1,000: a tenth of
    // the stalls under a stream of transfers. What a commit keeps is unchanged.
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  }
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode is still crash-safe for the database (a power cut may lose the last commits,
  // never leave half of one); it keeps a commit well under a millisecond.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // A savepoint's undo copies (the statement journal of each ctx.tx inside a turn's group
  // transaction) stay in memory: as a temp file they cost two writes per changed page per request,
  // as many as the WAL itself. They only ever undo an uncommitted savepoint; commits are unaffected.
  db.pragma('temp_store = MEMORY');
  db.exec(SCHEMA);
  migrate(db);
  return db;
}

/** Brings a data directory created by an earlier version up to the current schema. */
function migrate(db: Db): void {
  const userColumns = (db.prepare('PRAGMA table_info(users)').all() as { name: string }[]).map((c) => c.name);
  if (!userColumns.includes('disabled_business')) {
    db.exec("ALTER TABLE users ADD COLUMN disabled_business TEXT NOT NULL DEFAULT '[]'");
  }
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT v FROM meta WHERE k = ?').get(key) as { v: string } | undefined;
  return row?.v;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(key, value);
}
