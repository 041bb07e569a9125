/**
 * Where the team database is and how to reach it safely. A team URL is
 * `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE?sslmode=MODE[&sslrootcert=CA_FILE]`, as libpq
 * writes it. The password is taken out at once and kept in the OS keychain (KeyStore port); the URL
 * kept on disk (settings, `--team`, TREASURY_DESK_TEAM_URL after joining) never holds it.
 *
 * TLS (`sslmode`, libpq's names): `verify-full` (the default: the server's certificate must chain to
 * the CA and name the host), `verify-ca` (chain only), `require` (encrypted, but anyone in the middle
 * can pose as the server — for a network you trust), `disable` (loopback and tests). libpq's
 * `prefer` and `allow` are refused: they fall back to plain text without saying so.
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { DeskFailure } from '../errors';
import type { KeyStore } from '../keychain/keyStore';
import { teamRefused } from './errors';

export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface TeamUrl {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly sslmode: SslMode;
  /** A CA certificate file (PEM) the server's certificate must chain to; absent: the system's CAs. */
  readonly caFile?: string;
  /** The URL as it is kept on disk and shown: everything above, never a password. */
  readonly text: string;
}

const invalidUrl = (message: string): DeskFailure =>
  new DeskFailure({ code: 'INVALID_INPUT', message, fields: { url: message } });

/**
 * Reads a team URL. Returns the URL without its password and, separately, the password it carried
 * (to be put in the keychain with `saveTeamPassword`). Bad input is refused with the field's message.
 */
export const parseTeamUrl = (input: string): { readonly url: TeamUrl; readonly password?: string } => {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    throw invalidUrl('Enter a PostgreSQL URL: postgres://user@host:5432/database?sslmode=verify-full');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw invalidUrl('The URL must start with postgres:// (or postgresql://).');
  if (parsed.hostname === '') throw invalidUrl('The URL names no host.');
  const user = decodeURIComponent(parsed.username);
  if (user === '') throw invalidUrl('The URL names no user (postgres://USER@host/database).');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/')) throw invalidUrl('The URL names no database (…/DATABASE at the end).');
  const port = parsed.port === '' ? 5432 : Number(parsed.port);
  let sslmode: SslMode = 'verify-full';
  let caFile: string | undefined;
  for (const [name, value] of parsed.searchParams) {
    if (name === 'sslmode') {
      if (!(SSL_MODES as readonly string[]).includes(value))
        throw invalidUrl(
          value === 'prefer' || value === 'allow'
            ? `sslmode=${value} may fall back to an unencrypted connection: use verify-full, verify-ca, require or disable.`
            : `Unknown sslmode "${value}": use verify-full, verify-ca, require or disable.`,
        );
      sslmode = value as SslMode;
    } else if (name === 'sslrootcert') {
      caFile = value;
    } else {
      throw invalidUrl(`Unknown URL option "${name}": only sslmode and sslrootcert are read.`);
    }
  }
  if (caFile !== undefined && sslmode === 'disable') throw invalidUrl('sslrootcert needs TLS: remove sslmode=disable.');
  const options = new URLSearchParams({ sslmode, ...(caFile !== undefined ? { sslrootcert: caFile } : {}) });
  const host = parsed.hostname.startsWith('[') ? parsed.hostname : parsed.hostname.toLowerCase();
  const text = `postgres://${encodeURIComponent(user)}@${host}:${port}/${encodeURIComponent(database)}?${options}`;
  const password = parsed.password === '' ? undefined : decodeURIComponent(parsed.password);
  return {
    url: {
      host: host.replace(/^\[|\]$/g, ''),
      port,
      database,
      user,
      sslmode,
      ...(caFile !== undefined ? { caFile } : {}),
      text,
    },
    ...(password !== undefined ? { password } : {}),
  };
};

/** The keychain entry of a team database's password: one per user, host, port and database. */
export const teamPasswordEntry = (url: TeamUrl): string =>
  `team-database:${url.user}@${url.host}:${url.port}/${url.database}`;

export const saveTeamPassword = (keyStore: KeyStore, url: TeamUrl, password: string): Promise<void> =>
  keyStore.set(teamPasswordEntry(url), { key: url.user, secret: password, host: url.host });

/** The password from the keychain, or undefined when none is kept (the server may not ask for one). */
export const readTeamPassword = async (keyStore: KeyStore, url: TeamUrl): Promise<string | undefined> =>
  (await keyStore.get(teamPasswordEntry(url)))?.secret;

/** How long the desk waits for the team database before it says it is unavailable. */
export interface TeamTimeouts {
  /** Opening a connection (TCP, TLS and authentication). */
  readonly connectMs: number;
  /** One statement, client side and server side (statement_timeout). */
  readonly queryMs: number;
}
export const DEFAULT_TEAM_TIMEOUTS: TeamTimeouts = { connectMs: 3000, queryMs: 5000 };

const tlsOptions = (url: TeamUrl): pg.ClientConfig['ssl'] => {
  if (url.sslmode === 'disable') return false;
  let ca: string | undefined;
  if (url.caFile !== undefined) {
    try {
      ca = readFileSync(url.caFile, 'utf8');
    } catch (error) {
      throw teamRefused(
        `The team database's CA file ${url.caFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        'Check the sslrootcert path in the team URL.',
      );
    }
  }
  return {
    rejectUnauthorized: url.sslmode !== 'require',
    ...(ca !== undefined ? { ca } : {}),
    // verify-ca: the chain is checked, the name is not.
    ...(url.sslmode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
  };
};

/** The client configuration of a team URL (password from the keychain). */
export const connectionConfig = (
  url: TeamUrl,
  password: string | undefined,
  timeouts: TeamTimeouts = DEFAULT_TEAM_TIMEOUTS,
): pg.ClientConfig => ({
  host: url.host,
  port: url.port,
  database: url.database,
  user: url.user,
  ...(password !== undefined ? { password } : {}),
  ssl: tlsOptions(url),
  application_name: 'Treasury Desk',
  connectionTimeoutMillis: timeouts.connectMs,
  query_timeout: timeouts.queryMs,
  statement_timeout: timeouts.queryMs,
  // A desk that vanishes mid-transaction must not hold its locks for long.
  idle_in_transaction_session_timeout: Math.max(10_000, 2 * timeouts.queryMs),
  keepAlive: true,
});
