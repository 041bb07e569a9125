/**
 * The app's local database (SQLite via better-sqlite3, WAL): money-movement intents, the audit
 * log, balance snapshots, settings, profiles and the history cache. synchronous=FULL because an
 * intent must be on disk before its request leaves: a crash right after sending must find it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const compiled = new WeakMap<Db, Map<string, Database.Statement<unknown[], unknown>>>();

/**
 * The connection's statement for `sql`, compiled (parsed and planned) on its first use and kept for
 * the connection's life: stores that called `db.prepare` on each read or write spent ≈ 2.5 % of
 * the approvals, bulk and operators integration tests' CPU (up to 4 % in the bulk one) compiling the
 * same SQL again. One way for every store: `statement(db, sql)` for a statement run more than once.
 * Values go in as `?` parameters, never spliced into `sql`: each distinct text stays compiled for the
 * connection's life. Not for a statement whose mode a caller changes (`.pluck()`, `.raw()`,
 * `.expand()` stick to the shared statement) nor for `.iterate()` (the statement is busy until the
 * loop ends): those keep `db.prepare`.
 */
export const statement = <Params extends unknown[] = unknown[], Row = unknown>(
  db: Db,
  sql: string,
): Database.Statement<Params, Row> => {
  let statements = compiled.get(db);
  if (statements === undefined) {
    statements = new Map();
    compiled.set(db, statements);
  }
  let cached = statements.get(sql);
  if (cached === undefined) {
    cached = db.prepare(sql);
    statements.set(sql, cached);
  }
  return cached as unknown as Database.Statement<Params, Row>;
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS intents (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  client_id TEXT NOT NULL,
  platform_id TEXT,
  platform_status TEXT,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  params TEXT NOT NULL,
  label TEXT,
  message TEXT,
  request_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS intents_profile_state ON intents(profile_id, state);
CREATE INDEX IF NOT EXISTS intents_profile_created ON intents(profile_id, created_at);

CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  profile_id TEXT NOT NULL,
  action TEXT NOT NULL,
  account TEXT NOT NULL,
  params TEXT NOT NULL,
  outcome TEXT NOT NULL,
  label TEXT NOT NULL,
  request_id TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_append_only_update BEFORE UPDATE ON audit
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_append_only_delete BEFORE DELETE ON audit
  BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

CREATE TABLE IF NOT EXISTS snapshots (
  profile_id TEXT NOT NULL,
  minute INTEGER NOT NULL,
  at INTEGER NOT NULL,
  currency TEXT NOT NULL,
  total TEXT NOT NULL,
  by_account TEXT NOT NULL,
  PRIMARY KEY (profile_id, minute)
);

CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS profiles (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  key_mask TEXT,
  user_id INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS history_records (
  profile_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  record_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (profile_id, kind, record_id)
);
CREATE INDEX IF NOT EXISTS history_time ON history_records(profile_id, kind, time);

CREATE TABLE IF NOT EXISTS history_coverage (
  profile_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  from_s INTEGER NOT NULL,
  to_s INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS history_coverage_kind ON history_coverage(profile_id, kind);
`;

/** Adds a column unless a journal written by an earlier version already has it. */
const addColumn = (db: Db, table: string, column: string, type: string): void => {
  const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
  if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
};

/**
 * Changes to the schema above, in order; `PRAGMA user_version` counts the ones applied. Append,
 * never edit: a journal on a person's disk may stand at any version.
 */
const MIGRATIONS: readonly ((db: Db) => void)[] = [
  // 1. The request key: one intent per confirmation, enforced by SQLite across restarts.
  (db) => {
    addColumn(db, 'intents', 'request_key', 'TEXT');
    db.exec('CREATE UNIQUE INDEX IF NOT EXISTS intents_request_key ON intents(request_key)');
  },
  // 2. Times on the platform's clock (docs/core.md, "Proven absent"): the earliest a movement can
  //    have executed, and when its last attempt was given up. Local times move with the computer's
  //    clock; these do not.
  (db) => {
    addColumn(db, 'intents', 'earliest_platform_ms', 'INTEGER');
    addColumn(db, 'intents', 'sent_platform_ms', 'INTEGER');
  },
  // 3. History read newest first across kinds (Activity → History, its export) without sorting
  //    every record of the period.
  (db) => db.exec('CREATE INDEX IF NOT EXISTS history_profile_time ON history_records(profile_id, time)'),
  // 4. Bulk batches (docs/bulk.md): one batch row, its rows each with a derived request key (UNIQUE:
  //    the key of the movement each row journals through the ordinary handlers).
  (db) =>
    db.exec(`
CREATE TABLE IF NOT EXISTS batches (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS batches_profile ON batches(profile_id, created_at);
CREATE TABLE IF NOT EXISTS batch_rows (
  batch_id TEXT NOT NULL REFERENCES batches(id),
  row_no INTEGER NOT NULL,
  input TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  request_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL,
  movement_id TEXT,
  client_id TEXT,
  platform_id TEXT,
  label TEXT,
  message TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (batch_id, row_no)
);
CREATE INDEX IF NOT EXISTS batch_rows_state ON batch_rows(batch_id, state);
`),
  // 5. Operators (core/operators/): who may do what, their passphrase's scrypt hash only;
  //    the operator's name on every intent and audit entry ('' on those written before).
  (db) => {
    db.exec(`CREATE TABLE IF NOT EXISTS operators (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE,
      role TEXT NOT NULL CHECK (role IN ('viewer', 'maker', 'approver', 'admin')),
      passphrase_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      created_by TEXT NOT NULL DEFAULT ''
    )`);
    addColumn(db, 'intents', 'operator', "TEXT NOT NULL DEFAULT ''");
    addColumn(db, 'audit', 'operator', "TEXT NOT NULL DEFAULT ''");
  },
  // 6. When each operator last signed in or unlocked (Settings → Operators); null: never since.
  (db) => addColumn(db, 'operators', 'last_sign_in_at', 'INTEGER'),
  // 7. Wrong passphrases in a row and when the last one was typed, per operator (`subject`: the
  //    operator's id, or `name:` and the name typed when no operator has it), so that the wait after
  //    repeated failures survives a restart of the app or of its core (core/operators/).
  (db) =>
    db.exec(`CREATE TABLE IF NOT EXISTS passphrase_failures (
      subject TEXT PRIMARY KEY COLLATE NOCASE,
      failures INTEGER NOT NULL,
      last_failure_at INTEGER NOT NULL
    )`),
  // 8. The administrator who last granted each operator anything (created them, changed their role,
  //    reset their passphrase) and when: for a cooling-off period that operator may not approve what
  //    this administrator prepared (core/approvals/). And who chose the operator's current
  //    passphrase when it was not the operator ('' once they chose their own): until they do, they
  //    never approve what that administrator prepared. Operators from before: their creator, at creation.
  (db) => {
    addColumn(db, 'operators', 'granted_by', "TEXT NOT NULL DEFAULT ''");
    addColumn(db, 'operators', 'granted_at', 'INTEGER');
    addColumn(db, 'operators', 'passphrase_set_by', "TEXT NOT NULL DEFAULT ''");
    db.exec(`UPDATE operators SET
      granted_by = COALESCE((SELECT c.id FROM operators c WHERE c.name = operators.created_by AND operators.created_by <> ''), ''),
      granted_at = created_at`);
    // Never changed since created: the first passphrase is still the one the creator chose.
    db.exec('UPDATE operators SET passphrase_set_by = granted_by WHERE updated_at = created_at');
  },
  // 9. Where each movement was asked for (a screen, or a batch row confirmed as a whole: its batch,
  //    when and by whom), and when and by whom each batch was confirmed in the trusted window.
  (db) => {
    addColumn(db, 'intents', 'origin', "TEXT NOT NULL DEFAULT ''");
    addColumn(db, 'batches', 'confirmed_at', 'INTEGER');
    addColumn(db, 'batches', 'confirmed_by', "TEXT NOT NULL DEFAULT ''");
  },
];

const migrate = (db: Db): void => {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    for (const step of MIGRATIONS.slice(version)) step(db);
    if (version < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
};

export const openJournalDb = (dataDir: string | ':memory:'): Db => {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    // Only this user may read the journal (amounts, addresses, the audit log).
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    file = path.join(dataDir, 'journal.sqlite');
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  migrate(db);
  // Readable by this user only (the folder is 0700 too; this also holds if the file is moved).
  if (file !== ':memory:' && process.platform !== 'win32') {
    for (const part of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(part)) fs.chmodSync(part, 0o600);
  }
  return db;
};
