import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKeyStore } from '../keychain/keyStore';
import { parseTeamUrl, readTeamPassword, saveTeamPassword, teamPasswordEntry } from './connection';
import { TeamDatabase } from './database';
import { skipWithoutPostgres, withTestPostgres } from './testing/postgres';
import { manualTimers } from './testing/team';

describe('team URLs', () => {
  it('takes the password out: the URL kept on disk never holds it', () => {
    const { url, password } = parseTeamUrl(
      'postgresql://treasury:s3cret%2Fpw@DB.example.com/firm?sslmode=verify-full&sslrootcert=/etc/ca.pem',
    );
    expect(password).toBe('s3cret/pw');
    expect(url).toEqual({
      host: 'db.example.com',
      port: 5432,
      database: 'firm',
      user: 'treasury',
      sslmode: 'verify-full',
      caFile: '/etc/ca.pem',
      text: 'postgres://treasury@db.example.com:5432/firm?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem',
    });
    expect(url.text).not.toContain('s3cret');
    // Read back, the kept URL is the same URL.
    expect(parseTeamUrl(url.text)).toEqual({ url });
  });

  it('verifies the server by default', () => {
    expect(parseTeamUrl('postgres://u@h/d').url.sslmode).toBe('verify-full');
  });

  it.each([
    ['https://u@h/d', 'The URL must start with postgres:// (or postgresql://).'],
    ['postgres://h/d', 'The URL names no user (postgres://USER@host/database).'],
    ['postgres://u@h', 'The URL names no database (…/DATABASE at the end).'],
    [
      'postgres://u@h/d?sslmode=prefer',
      'sslmode=prefer may fall back to an unencrypted connection: use verify-full, verify-ca, require or disable.',
    ],
    ['postgres://u@h/d?sslmode=weird', 'Unknown sslmode "weird": use verify-full, verify-ca, require or disable.'],
    ['postgres://u@h/d?options=-c%20x', 'Unknown URL option "options": only sslmode and sslrootcert are read.'],
    ['postgres://u@h/d?sslmode=disable&sslrootcert=/ca', 'sslrootcert needs TLS: remove sslmode=disable.'],
    ['not a url', 'Enter a PostgreSQL URL: postgres://user@host:5432/database?sslmode=verify-full'],
  ])('refuses %s with a message at the field', (input, message) => {
    expect(() => parseTeamUrl(input)).toThrow(
      expect.objectContaining({
        detail: expect.objectContaining({ code: 'INVALID_INPUT', message, fields: { url: message } }),
      }),
    );
  });

  it('keeps the password in the keychain, under an entry named by user, host, port and database', async () => {
    const keyStore = new MemoryKeyStore();
    const { url, password } = parseTeamUrl('postgres://treasury:pw@db:6432/firm');
    await saveTeamPassword(keyStore, url, password!);
    expect(teamPasswordEntry(url)).toBe('team-database:treasury@db:6432/firm');
    expect(await readTeamPassword(keyStore, url)).toBe('pw');
  });
});

describe.skipIf(skipWithoutPostgres('team connection.test'))('connecting to the team database (TLS on)', () => {
  const pg = withTestPostgres({ tls: true });
  let database: string;
  const keyStore = new MemoryKeyStore();
  const opened: TeamDatabase[] = [];
  beforeAll(async () => {
    database = await pg.server.createDatabase();
  });
  afterAll(async () => Promise.all(opened.map((db) => db.close())));

  const open = async (options: string, password = pg.server.password) => {
    const { url } = parseTeamUrl(`${pg.server.url(database)}?${options}`);
    await saveTeamPassword(keyStore, url, password);
    const db = await TeamDatabase.open(url, keyStore, { timers: manualTimers() });
    opened.push(db);
    return db;
  };
  const encrypted = async (db: TeamDatabase) =>
    (await db.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))[0]?.ssl;

  it('verify-full with the CA file: connected over TLS, the password read from the keychain', async () => {
    const db = await open(`sslmode=verify-full&sslrootcert=${encodeURIComponent(pg.server.caFile!)}`);
    expect(await encrypted(db)).toBe(true);
  });

  it('verify-full without the CA that signed the server: refused, saying why (not "unavailable")', async () => {
    const db = await open('sslmode=verify-full');
    await expect(db.query('SELECT 1')).rejects.toMatchObject({
      detail: { code: 'PRECONDITION', message: expect.stringMatching(/^The team database's TLS connection failed/) },
    });
    expect(db.health().state).toBe('connected');
  });

  it('require: encrypted without checking the certificate; disable: plain', async () => {
    expect(await encrypted(await open('sslmode=require'))).toBe(true);
    expect(await encrypted(await open('sslmode=disable'))).toBe(false);
  });

  it('a wrong password is refused with advice, and the database is not reported away', async () => {
    const db = await open('sslmode=disable', 'wrong');
    await expect(db.query('SELECT 1')).rejects.toMatchObject({
      detail: {
        code: 'PRECONDITION',
        message: expect.stringMatching(/refused this desk's sign-in .*password authentication failed/),
      },
    });
    expect(db.health().state).toBe('connected');
  });
});
