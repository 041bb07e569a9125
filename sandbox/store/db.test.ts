import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase on a data directory of an earlier version', () => {
  it('adds the sub-account business permissions column and keeps the users', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
    dirs.push(dir);
    const old = new Database(path.join(dir, 'sandbox.sqlite'));
    old.exec(`CREATE TABLE users (
      id INTEGER PRIMARY KEY, parent_id INTEGER, login_name TEXT NOT NULL UNIQUE, remark TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '', state INTEGER NOT NULL DEFAULT 1, type INTEGER NOT NULL DEFAULT 1,
      create_time INTEGER NOT NULL, unified_mode TEXT NOT NULL DEFAULT 'classic',
      refuse_push INTEGER NOT NULL DEFAULT 0, fee_tier TEXT NOT NULL DEFAULT '{}');
      INSERT INTO users (id, login_name, create_time) VALUES (10000001, 'desk_main', 1);`);
    old.close();
    const db = openDatabase(dir);
    expect(db.prepare('SELECT login_name, disabled_business FROM users').all()).toEqual([
      { login_name: 'desk_main', disabled_business: '[]' },
    ]);
    db.close();
    // A second start finds nothing left to migrate.
    openDatabase(dir).close();
  });
});

describe('openDatabase on a data directory in use', () => {
  it('refuses a second sandbox on the same directory instead of sharing its balances', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
    dirs.push(dir);
    const first = openDatabase(dir);
    expect(() => openDatabase(dir)).toThrow(/Another sandbox is already using the data directory/);
    first.close();
    // Once the first one has stopped, the directory can be opened again.
    openDatabase(dir).close();
  });
});

describe('openDatabase keeps the data directory private (it holds every API secret)', () => {
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it('creates the directory 0700 and the database and its WAL 0600', () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
    dirs.push(parent);
    const dir = path.join(parent, 'sandbox');
    const db = openDatabase(dir);
    db.exec("INSERT INTO meta (k, v) VALUES ('written', '1')");
    expect(mode(dir)).toBe(0o700);
    const files = fs.readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['sandbox.sqlite', 'sandbox.sqlite-wal']));
    for (const f of files) expect(mode(path.join(dir, f)), f).toBe(0o600);
    db.close();
  });

  it('tightens a directory and files an earlier version left readable by others', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
    dirs.push(dir);
    const file = path.join(dir, 'sandbox.sqlite');
    // An earlier sandbox that crashed: its database and an uncheckpointed WAL, both 0644, in a 0755 folder.
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL); INSERT INTO meta VALUES ('left', 'behind')");
    const leftoverWal = fs.readFileSync(`${file}-wal`);
    old.close();
    fs.writeFileSync(`${file}-wal`, leftoverWal);
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(file, 0o644);
    fs.chmodSync(`${file}-wal`, 0o644);

    const db = openDatabase(dir);
    expect(mode(dir)).toBe(0o700);
    for (const f of fs.readdirSync(dir)) expect(mode(path.join(dir, f)), f).toBe(0o600);
    expect(db.prepare("SELECT v FROM meta WHERE k = 'left'").get()).toEqual({ v: 'behind' });
    db.close();
  });
});

describe('openDatabase on a data directory keeps a commit cheap', () => {
  it('lets the write-ahead log grow past 1,000 pages before a checkpoint copies it (SQLite’s default stalls ten times as often)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-db-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    const file = path.join(dir, 'sandbox.sqlite');
    db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, pad BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO filler (pad) VALUES (zeroblob(3000))');
    // One commit per row, each at least one new page of the log: 2,000 pages, past SQLite's 1,000.
    for (let i = 0; i < 2_000; i += 1) insert.run();
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(1_500 * pageSize);
    // Savepoints' undo pages stay in memory, not in a temp file written on every request.
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
    db.close();
  });
});
