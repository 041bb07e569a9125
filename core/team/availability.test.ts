import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { connectionConfig, parseTeamUrl } from './connection';
import { TeamDatabase, type TeamHealth } from './database';
import { TeamUnavailable } from './errors';
import { TeamMovements } from './movements';
import { skipWithoutPostgres } from './testing/postgres';
import { manualTimers, movementRequest, openTestDatabase, withTestTeam } from './testing/team';

describe.skipIf(skipWithoutPostgres('team availability.test'))('when the team database is away', () => {
  const file = withTestTeam();

  it('calls fail at once with TeamUnavailable, the health says so, and it comes back by itself when the server returns', async () => {
    const t = file.team;
    const timers = manualTimers();
    const db = openTestDatabase(file.server, t.database, { timers, probeEveryMs: 1000, now: () => 1234 });
    const healths: TeamHealth[] = [];
    db.onHealth((h) => healths.push(h));
    const desk = new TeamMovements(db, 'desk-a');
    const state = await t.state();
    expect(db.health()).toEqual({ state: 'connected' });
    await db.query('SELECT 1');

    await file.server.stop();
    const request = movementRequest(t, state, t.carol);
    const prepared = desk.prepare(t.carol.sign(request), request, {
      checkLimits: () => undefined,
    });
    await expect(prepared).rejects.toBeInstanceOf(TeamUnavailable);
    await expect(prepared).rejects.toMatchObject({ detail: { code: 'JOURNAL_UNAVAILABLE', delivery: 'not_sent' } });
    await expect(db.query('SELECT 1')).rejects.toThrow(/The team database is unavailable \(.*\)\. Nothing was sent/);
    expect(db.health()).toEqual({ state: 'unavailable', since: 1234, reason: expect.any(String) });
    // One probe waits; it fails too while the server is down and waits again.
    expect(timers.pending).toBe(1);
    timers.fireAll();
    await vi.waitFor(() => expect(timers.pending).toBe(1));
    expect(db.health().state).toBe('unavailable');

    await file.server.start();
    const back = new Promise<void>((resolve) => db.onHealth((h) => h.state === 'connected' && resolve()));
    timers.fireAll();
    await back;
    expect(healths.map((h) => h.state)).toEqual(['unavailable', 'connected']);
    // Nothing was journaled while it was away; now it is.
    expect(await desk.get(request.movementId)).toBeUndefined();
    await desk.prepare(t.carol.sign(request), request, { checkLimits: () => undefined });
    expect(await desk.get(request.movementId)).toMatchObject({ state: 'awaiting_approval' });
    await db.close();
  });

  it('a server that accepts the connection but never answers: TeamUnavailable after the connect timeout, not a hang', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const { url } = parseTeamUrl(`postgres://td@127.0.0.1:${port}/team?sslmode=disable`);
    const db = new TeamDatabase(connectionConfig(url, 'pw', { connectMs: 200, queryMs: 200 }), {
      timers: manualTimers(),
    });
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(TeamUnavailable);
    expect(db.health().state).toBe('unavailable');
    await db.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a statement that takes longer than the statement timeout (a lock held by a stuck desk) fails instead of waiting', async () => {
    const quick = new TeamDatabase(
      { ...file.team.db.config, query_timeout: 300, statement_timeout: 300 },
      { timers: manualTimers() },
    );
    await expect(quick.query('SELECT pg_sleep(5)')).rejects.toBeInstanceOf(TeamUnavailable);
    await quick.close();
  });
});

describe('a server that shuts down as it hands over a connection', () => {
  /** One PostgreSQL wire message: its type, its length (itself included) and its body. */
  const message = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length + 4);
    return Buffer.concat([Buffer.from(type), length, body]);
  };
  const field = (code: string, text: string) => Buffer.from(`${code}${text}\0`);

  it('fails the transaction as unavailable, with no error escaping to the process', async () => {
    // A server that signs the desk in and, in the same write, says it is shutting down (as one does
    // when stopped right then): the pool hands the connection over while that write is being read.
    const server: Server = createServer((socket) => {
      socket.once('data', () =>
        socket.write(
          Buffer.concat([
            message('R', Buffer.from([0, 0, 0, 0])), // AuthenticationOk
            message('Z', Buffer.from('I')), // ReadyForQuery
            message(
              'E',
              Buffer.concat([
                field('S', 'FATAL'),
                field('V', 'FATAL'),
                field('C', '57P01'),
                field('M', 'terminating connection due to administrator command'),
                Buffer.from([0]),
              ]),
            ),
          ]),
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const escaped: unknown[] = [];
    const onUncaught = (error: unknown) => escaped.push(error);
    process.on('uncaughtException', onUncaught);
    const { url } = parseTeamUrl(`postgres://td@127.0.0.1:${port}/team?sslmode=disable`);
    const db = new TeamDatabase(connectionConfig(url, 'pw', { connectMs: 2000, queryMs: 2000 }), {
      timers: manualTimers(),
    });
    try {
      await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(TeamUnavailable);
      expect(db.health().state).toBe('unavailable');
      expect(escaped).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.close();
      server.close();
    }
  });
});
