/**
 * THE test PostgreSQL: a throwaway cluster on loopback, on a free port, in a temporary folder, for the
 * team layer's tests (and later the two-desk e2e and `bench:team`). Debian's `postgresql` packages
 * provide the server (`npm run setup` installs them; docs/decisions.md says why not a registry
 * package).
 *
 * - Fast: `initdb` runs once per machine into a template folder (about a second); each cluster is a
 *   copy of it (tens of milliseconds) and starts in about 0.1 s. Durability is off (`fsync=off`): a
 *   test cluster never outlives its test run, but a stop and start keep its data.
 * - PostgreSQL refuses to run as root, and CI runs as root: the server's commands then run as the
 *   `postgres` user the package creates (`runuser`), otherwise as the current user.
 * - Host connections need the password (scram-sha-256), so the tests exercise the same
 *   authentication as a real team database; `tls: true` also turns on TLS with a throwaway CA.
 * - Without a server binary the tests skip, saying why; on CI (where `npm run setup` installed it)
 *   a missing binary is an error, never a silent skip.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

/** The superuser of every test cluster, and its password for host (TCP) connections. */
export const TEST_PG_USER = 'td';
export const TEST_PG_PASSWORD = 'test cluster password';
const HOST = '127.0.0.1';
const SERVER_ACCOUNT = 'postgres';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const hasServer = (bin: string): boolean => ['postgres', 'initdb', 'pg_ctl'].every((p) => existsSync(join(bin, p)));

/**
 * The server's bin folder: `TREASURY_DESK_PG_BIN`, else Debian's newest /usr/lib/postgresql/N/bin,
 * else a folder on PATH that has the server (Fedora, Arch, Homebrew), else none.
 */
export const findPostgresBin = (): string | undefined => {
  const override = process.env.TREASURY_DESK_PG_BIN;
  if (override) return hasServer(override) ? override : undefined;
  const root = '/usr/lib/postgresql';
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && hasServer(join(root, v, 'bin')))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(root, v, 'bin'))
    : [];
  return [...debian, ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)].find(hasServer);
};

/**
 * Why the PostgreSQL tests cannot run here, or undefined when they can. On CI it throws instead:
 * the set-up installs the server, so its absence is a broken set-up, not a reason to skip.
 */
export const postgresSkipReason = (): string | undefined => {
  let reason: string | undefined;
  if (findPostgresBin() === undefined)
    reason =
      'no PostgreSQL server binary (/usr/lib/postgresql/*/bin/postgres, TREASURY_DESK_PG_BIN or PATH); `npm run setup` installs it';
  else if (asRoot && !accountExists(SERVER_ACCOUNT))
    reason = `running as root and there is no "${SERVER_ACCOUNT}" user to run the server as`;
  if (reason !== undefined && process.env.CI) throw new Error(`PostgreSQL tests cannot run on CI: ${reason}`);
  return reason;
};

/**
 * Whether a test file's PostgreSQL tests are skipped here; says why once (`label`: the file). Use as
 * `describe.skipIf(skipWithoutPostgres('team audit.test'))(…)`.
 */
export const skipWithoutPostgres = (label: string): boolean => {
  const reason = postgresSkipReason();
  if (reason !== undefined) console.warn(`${label}: skipped — ${reason}`);
  return reason !== undefined;
};

const accountExists = (name: string): boolean => {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Runs one of the server's programs as the account that may run it. */
const asServer = (bin: string, program: string, args: readonly string[]) =>
  asRoot ? run('runuser', ['-u', SERVER_ACCOUNT, '--', join(bin, program), ...args]) : run(join(bin, program), args);

/** Hands a folder (and what is in it) to the server's account when we are root. */
const giveToServer = async (path: string): Promise<void> => {
  if (asRoot) await run('chown', ['-R', `${SERVER_ACCOUNT}:`, path]);
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/**
 * The initialised cluster every test cluster copies: made once per machine and server version, in
 * the temp folder, under a unique name and renamed into place (two test files starting at once
 * cannot both half-write it).
 */
const template = async (bin: string): Promise<string> => {
  // "postgres (PostgreSQL) 15.18 (Debian …)" → 15.18: a new server version makes a new template.
  const version =
    /\d+(\.\d+)*/.exec(execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }))?.[0] ?? 'pg';
  const owner = asRoot ? SERVER_ACCOUNT : String(process.getuid?.() ?? 'user');
  const path = join(tmpdir(), `treasury-desk-pg-template-${version}-${owner}`);
  if (existsSync(join(path, 'PG_VERSION'))) return path;
  const work = mkdtempSync(join(tmpdir(), 'treasury-desk-pg-initdb-'));
  const passwordFile = join(work, 'password');
  writeFileSync(passwordFile, TEST_PG_PASSWORD);
  await giveToServer(work);
  await asServer(bin, 'initdb', [
    '-D',
    join(work, 'data'),
    '-U',
    TEST_PG_USER,
    `--pwfile=${passwordFile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
    // 1 MB WAL segments instead of 16: a smaller folder to copy for every cluster.
    '--wal-segsize=1',
  ]);
  try {
    renameSync(join(work, 'data'), path);
  } catch (error) {
    // Another test file made it first: use theirs.
    if (!existsSync(join(path, 'PG_VERSION'))) throw error;
  }
  rmSync(work, { recursive: true, force: true });
  return path;
};

/** A CA and a server certificate for 127.0.0.1 (openssl), for the TLS tests. */
const makeCertificates = async (dir: string): Promise<{ ca: string; cert: string; key: string }> => {
  const ca = join(dir, 'ca.crt');
  const caKey = join(dir, 'ca.key');
  const key = join(dir, 'server.key');
  const request = join(dir, 'server.csr');
  const cert = join(dir, 'server.crt');
  const ext = join(dir, 'server.ext');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Test team CA',
    '-keyout',
    caKey,
    '-out',
    ca,
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    key,
    '-out',
    request,
  ]);
  writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    request,
    '-CA',
    ca,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    ext,
    '-out',
    cert,
  ]);
  chmodSync(key, 0o600);
  return { ca, cert, key };
};

export interface TestPostgresOptions {
  /** Turn TLS on (a server certificate for 127.0.0.1 signed by `caFile`). */
  readonly tls?: boolean;
}

export interface TestPostgres {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** The CA that signed the server's certificate (with `tls: true`). */
  readonly caFile?: string;
  /** `postgres://td@127.0.0.1:<port>/<database>`: no password, as a team URL is stored. */
  url(database: string): string;
  /** A new, empty database (each test that wants a clean team takes one). */
  createDatabase(): Promise<string>;
  /** A superuser connection to a database, for tests that play the database administrator. */
  admin(database: string): Promise<pg.Client>;
  /** Stops the server (`fast`: disconnects everyone and shuts down cleanly), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

const running = new Set<() => void>();
process.once('exit', () => {
  for (const kill of running) kill();
});

let databases = 0;

export const startTestPostgres = async (options: TestPostgresOptions = {}): Promise<TestPostgres> => {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(postgresSkipReason() ?? 'no PostgreSQL server binary');
  const source = await template(bin);
  const dir = mkdtempSync(join(tmpdir(), 'treasury-desk-pg-'));
  const data = join(dir, 'data');
  // cp -a keeps the owner and the 0700 the server insists on (and is twice as fast as fs.cpSync here).
  await run('cp', ['-a', source, data]);
  const settings = [
    `-k ${dir}`,
    `-c listen_addresses=${HOST}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ];
  let caFile: string | undefined;
  if (options.tls) {
    const certificates = await makeCertificates(dir);
    caFile = certificates.ca;
    settings.push('-c ssl=on', `-c ssl_cert_file=${certificates.cert}`, `-c ssl_key_file=${certificates.key}`);
  }
  await giveToServer(dir);
  const pgCtl = (...args: string[]) => asServer(bin, 'pg_ctl', ['-D', data, ...args]);
  // If the test process dies, the server must not outlive it.
  const killNow = () => {
    try {
      execFileSync(
        asRoot ? 'runuser' : join(bin, 'pg_ctl'),
        [...(asRoot ? ['-u', SERVER_ACCOUNT, '--', join(bin, 'pg_ctl')] : []), '-D', data, '-m', 'immediate', 'stop'],
        { stdio: 'ignore' },
      );
    } catch {
      // already stopped
    }
  };

  let port = 0;
  const start = async (): Promise<void> => {
    await pgCtl('-w', '-l', join(dir, 'log'), '-o', [`-p ${port}`, ...settings].join(' '), 'start');
    running.add(killNow);
  };
  // A free port can be taken by someone else before the server binds it: try another.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }

  const url = (database: string) => `postgres://${TEST_PG_USER}@${HOST}:${port}/${database}`;
  const admin = async (database: string): Promise<pg.Client> => {
    const client = new pg.Client({ host: HOST, port, user: TEST_PG_USER, password: TEST_PG_PASSWORD, database });
    await client.connect();
    return client;
  };
  return {
    host: HOST,
    port,
    user: TEST_PG_USER,
    password: TEST_PG_PASSWORD,
    ...(caFile ? { caFile } : {}),
    url,
    admin,
    async createDatabase() {
      const name = `team_${process.pid}_${++databases}`;
      const client = await admin('postgres');
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return name;
    },
    async stop() {
      await pgCtl('-w', '-m', 'fast', 'stop');
      running.delete(killNow);
    },
    start,
    async close() {
      if (running.has(killNow)) await pgCtl('-w', '-m', 'immediate', 'stop');
      running.delete(killNow);
      await run('rm', ['-rf', dir]);
    },
  };
};

/**
 * One test cluster for a whole test file: started before its tests, removed after them. Call it inside
 * `describe.skipIf(skipWithoutPostgres(…))`.
 */
export const withTestPostgres = (options: TestPostgresOptions = {}): { readonly server: TestPostgres } => {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the test PostgreSQL is not started yet (use it inside a test)');
      return server;
    },
  };
};
