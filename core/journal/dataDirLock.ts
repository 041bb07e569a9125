/**
 * One process per data directory. Two cores on one journal would each take the other's in-flight
 * movement for an orphan and settle it themselves (a queued push sent twice), so the core takes
 * this lock before it opens anything else in the folder and keeps it until it closes.
 *
 * The lock is an OS lock, not a file that says "taken": SQLite holds an exclusive lock on
 * `core.lock` (POSIX fcntl on Linux and macOS, LockFileEx on Windows), which the OS drops when
 * the process ends however it ends, so a crash never leaves a stale lock behind. SQLite also tells
 * two connections of one process apart, so a second core in the same process is refused too.
 * Who holds it is written beside it (`core.lock.json`) so that a refused start can say so.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface LockHolder {
  readonly pid: number;
  /** Which shell started the core ("electron", "chromium", a test worker, …). */
  readonly shell: string;
  /** Unix ms. */
  readonly since: number;
}

/** Another process (or another core in this one) already works on this data directory. */
export class DataDirBusy extends Error {
  override readonly name = 'DataDirBusy';

  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      holder
        ? `Treasury Desk is already running on this data folder (${dataDir}): process ${holder.pid} (${holder.shell}) since ${new Date(holder.since).toISOString()}. Use that window, or close it first; nothing was changed here.`
        : `Treasury Desk is already running on this data folder (${dataDir}). Use that window, or close it first; nothing was changed here.`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

const LOCK_FILE = 'core.lock';
const HOLDER_FILE = 'core.lock.json';

const readHolder = (dataDir: string): LockHolder | undefined => {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as LockHolder;
    return typeof value.pid === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
};

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

/** Takes the data directory's lock or throws DataDirBusy; `release()` gives it back. */
export const lockDataDir = (dataDir: string, shell: string): DataDirLock => {
  // Only this user may enter it (journal, audit log, the sandbox's keys), even if it existed before.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') fs.chmodSync(dataDir, 0o700);
  // The lock file is this user's only too (SQLite gives its journal the same mode), also when an
  // older version made it readable by everyone.
  const lockFile = path.join(dataDir, LOCK_FILE);
  fs.closeSync(fs.openSync(lockFile, 'a', 0o600));
  if (process.platform !== 'win32') fs.chmodSync(lockFile, 0o600);
  // timeout 0: a held lock answers SQLITE_BUSY at once instead of waiting for it.
  const db = new Database(lockFile, { timeout: 0 });
  try {
    // EXCLUSIVE locking mode keeps the lock of the first write until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, shell TEXT, since INTEGER)');
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new DataDirBusy(dataDir, readHolder(dataDir));
    throw error;
  }
  const holder: LockHolder = { pid: process.pid, shell, since: Date.now() };
  try {
    fs.writeFileSync(path.join(dataDir, HOLDER_FILE), JSON.stringify(holder), { mode: 0o600 });
  } catch {
    // Only a courtesy for the message of a refused start; the lock itself holds.
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      if (readHolder(dataDir)?.pid === process.pid) fs.rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
      db.close();
    },
  };
};
