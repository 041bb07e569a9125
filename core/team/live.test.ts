import { describe, expect, it, vi } from 'vitest';
import { latestChange, type TeamChange, TeamLive } from './changes';
import { TeamMovements } from './movements';
import { skipWithoutPostgres } from './testing/postgres';
import { manualTimers, movementRequest, withTestTeam } from './testing/team';

describe.skipIf(skipWithoutPostgres('team live.test'))('live changes between desks (LISTEN/NOTIFY)', () => {
  const file = withTestTeam();
  /** Desk A's writes: each prepares a movement (one change) and says its id. */
  const preparingOnDeskA = async () => {
    const t = file.team;
    const deskA = new TeamMovements(t.db, 'desk-a');
    const state = await t.state();
    return async () => {
      const request = movementRequest(t, state, t.carol);
      await deskA.prepare(t.carol.sign(request), request, { checkLimits: () => undefined });
      return request.movementId;
    };
  };

  it('desk B hears what desk A commits; after a database restart it reconnects and reads what it missed, once, in order', async () => {
    const t = file.team;
    const timers = manualTimers();
    const deskB = t.desk({ timers });
    const heard: TeamChange[] = [];
    const live = new TeamLive(deskB, (change) => heard.push(change), { timers });
    await live.start();
    const prepare = await preparingOnDeskA();

    const first = await prepare();
    await vi.waitFor(() =>
      expect(heard).toEqual([{ seq: expect.any(Number), kind: 'approval.prepared', subject: first }]),
    );
    // The audit chain and the control plane announce themselves the same way.
    const control = await t.control.prepare(t.team.id, t.alice, {
      kind: 'operator.role',
      operatorId: 'erin',
      role: 'maker',
    });
    await vi.waitFor(() => expect(heard.at(-1)).toMatchObject({ kind: 'control.changed', subject: control.changeId }));

    await file.server.stop();
    await vi.waitFor(() => expect(live.connected).toBe(false));
    expect(deskB.health().state).toBe('unavailable');
    await file.server.start();
    // The database is back, desk B has not reconnected yet (its retry waits): desk A writes meanwhile.
    const missed = [await prepare(), await prepare()];
    expect(heard).toHaveLength(2);
    timers.fireAll();
    await vi.waitFor(() => expect(heard).toHaveLength(4));
    expect(heard.slice(2).map((c) => c.subject)).toEqual(missed);
    expect(live.connected).toBe(true);
    expect(deskB.health().state).toBe('connected');

    // Anyone with access to the database can NOTIFY on the channel: what is not a change is ignored.
    await file.dba(
      t.database,
      `SELECT pg_notify('treasury_desk_team', 'not json'), pg_notify('treasury_desk_team', '{"seq":1e9}')`,
    );
    // Live again: the next change arrives once.
    const after = await prepare();
    await vi.waitFor(() => expect(heard.at(-1)?.subject).toBe(after));
    const seqs = heard.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    await live.stop();
  });

  it('a change heard the moment it listens again waits for the catch-up read: what was missed before it is not skipped', async () => {
    const t = file.team;
    const prepare = await preparingOnDeskA();
    // Desk B was away from `since` on; desk A wrote two changes meanwhile.
    const since = await latestChange(t.db);
    const missed = [await prepare(), await prepare()];
    // Desk B's connection, the moment its LISTEN is answered (before it reads what it missed): desk A
    // writes a third change, and B hears its notification first.
    let heardFirst: string | undefined;
    const deskB = t.desk();
    const newClient = deskB.newClient.bind(deskB);
    deskB.newClient = () => {
      const client = newClient();
      type Query = (text: string, params?: unknown[]) => Promise<unknown>;
      const query = client.query.bind(client) as Query;
      (client as unknown as { query: Query }).query = async (text, params) => {
        const answer = await query(text, params);
        if (text.startsWith('LISTEN') && heardFirst === undefined) {
          const notified = new Promise((resolve) => client.once('notification', resolve));
          heardFirst = await prepare();
          await notified;
        }
        return answer;
      };
      return client;
    };
    const heard: TeamChange[] = [];
    const live = new TeamLive(deskB, (change) => heard.push(change), { after: since });
    await live.start();
    await vi.waitFor(() => expect(heard.map((c) => c.subject)).toEqual([...missed, heardFirst]));
    await live.stop();
  });

  it('changes committed in one order are delivered in that order, even from concurrent desks', async () => {
    const t = file.team;
    const heard: TeamChange[] = [];
    const live = new TeamLive(t.desk(), (change) => heard.push(change));
    await live.start();
    const desks = [new TeamMovements(t.db, 'desk-a'), new TeamMovements(t.desk(), 'desk-b')];
    const state = await t.state();
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const request = movementRequest(t, state, t.carol);
        await desks[i % 2]!.prepare(t.carol.sign(request), request, {
          checkLimits: () => undefined,
        });
        return request.movementId;
      }),
    );
    await vi.waitFor(() => expect(heard).toHaveLength(20));
    expect(new Set(heard.map((c) => c.subject))).toEqual(new Set(ids));
    const seqs = heard.map((c) => c.seq);
    // Commit order is seq order, without gaps: a subscriber that reads "everything after n" misses nothing.
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => seqs[0]! + i));
    await live.stop();
  });
});
