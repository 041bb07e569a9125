import { describe, expect, it } from 'vitest';
import { TeamAudit } from './audit';
import { importSoloDesk, type SoloDeskExport } from './import';
import { skipWithoutPostgres } from './testing/postgres';
import type { TestTeam } from './testing/team';
import { withTestTeam } from './testing/team';

/** A solo desk's journal as the desk reads it: three audit entries, four movements (two in flight). */
const SOLO_AUDIT = [
  { seq: 1, at: 1000, action: 'operators.create', operator: 'Ann', params: '{"name":"Bob"}', hash: 'h1' },
  { seq: 2, at: 2000, action: 'POST /withdrawals', operator: 'Bob', params: '{"amount":"12.5"}', hash: 'h2' },
  { seq: 3, at: 3000, action: 'POST /withdrawals', operator: 'Bob', params: '{"amount":"7"}', hash: 'h3' },
];
const SOLO_MOVEMENTS = [
  {
    id: 'mv_1',
    clientId: 'c1',
    requestKey: 'k1',
    profileId: 'p1',
    kind: 'withdrawal',
    state: 'done',
    amount: '12.5',
  },
  { id: 'mv_2', clientId: 'c2', requestKey: 'k2', profileId: 'p1', kind: 'withdrawal', state: 'sent', amount: '7' },
  { id: 'mv_3', clientId: 'c3', profileId: 'p1', kind: 'transfer', state: 'unknown', amount: '1' },
  { id: 'mv_4', clientId: 'c4', profileId: 'p1', kind: 'withdrawal', state: 'failed', amount: '3' },
];
const SOLO: SoloDeskExport = {
  audit: SOLO_AUDIT,
  auditHead: { count: 3, hash: 'h3' },
  movements: SOLO_MOVEMENTS,
  operators: [
    { name: 'Ann', role: 'admin' },
    { name: 'Bob', role: 'maker' },
  ],
};

describe.skipIf(skipWithoutPostgres('team import.test'))('importing a solo desk into a new team', () => {
  const file = withTestTeam();
  const { ownTeam: withOwnTeam, dba } = file;
  const deskA = (team: TestTeam) => new TeamAudit(team.db, team.team.id, 'desk-a');
  const rows = async (team: TestTeam, table: string) =>
    Number((await dba(team.database, `SELECT count(*)::int AS n FROM ${table}`))[0]!.n);

  it('the journal and audit log arrive as history anchored by the administrator’s signed entry; in-flight movements wait for a lookup, none can be sent', async () => {
    await withOwnTeam(async (team) => {
      const audit = deskA(team);
      const receipt = await importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, SOLO);
      expect(receipt).toMatchObject({
        audit: { entries: 3, head: 'h3' },
        movements: { count: 4, inFlight: 2 },
        operators: SOLO.operators,
        entry: { seq: 0 },
      });
      const chain = await audit.chain(await team.state());
      expect(chain.verdict).toMatchObject({ ok: true, entries: 1 });
      expect(chain.entries[0]).toMatchObject({
        signed: true,
        verified: true,
        entry: { operator: 'alice', action: 'team.importSoloDesk' },
      });
      const lookups = await dba(team.database, 'SELECT id FROM solo_movements WHERE needs_lookup ORDER BY n');
      expect(lookups.map((r) => r.id)).toEqual(['mv_2', 'mv_3']);
      // History only: nothing in the team's movement journal, so no desk claims or sends any of them.
      expect(await rows(team, 'movements')).toBe(0);
    });
  });

  it('a second import, or an import into a team already in use, is refused and changes nothing', async () => {
    await withOwnTeam(async (team) => {
      const audit = deskA(team);
      await importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, SOLO);
      await expect(importSoloDesk(team.db, audit, 'desk-b', await team.state(), team.bob, SOLO)).rejects.toMatchObject({
        detail: {
          code: 'PRECONDITION',
          message: 'This team already holds an imported solo journal: a team imports one desk’s journal, once.',
        },
      });
      expect([await rows(team, 'solo_movements'), await rows(team, 'solo_audit'), await rows(team, 'audit')]).toEqual([
        4, 3, 1,
      ]);
    });
    await withOwnTeam(async (team) => {
      const audit = deskA(team);
      await audit.append({ action: 'approvals.approve', params: { movement: 'mv_x' }, outcome: 'ok' }, team.dave);
      await expect(importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, SOLO)).rejects.toThrow(
        'This team is already in use (it holds movements or audit entries): a solo journal is imported only into a new team.',
      );
      expect(await rows(team, 'solo_movements')).toBe(0);
    });
  });

  it('only a team administrator imports; a log that does not end at its kept head is not imported', async () => {
    await withOwnTeam(async (team) => {
      const audit = deskA(team);
      await expect(importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.carol, SOLO)).rejects.toThrow(
        'Only an administrator of the team imports a desk’s journal.',
      );
      const truncated = { ...SOLO, audit: SOLO.audit.slice(0, 2) };
      await expect(importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, truncated)).rejects.toThrow(
        'This desk’s audit log does not end where its keychain says it ends: it is not imported.',
      );
      expect(await rows(team, 'solo_audit')).toBe(0);
    });
  });

  it('a desk that stops mid-import leaves nothing behind, and the import can be done again', async () => {
    await withOwnTeam(async (team) => {
      const audit = deskA(team);
      // The rows are written, then the desk is cut off before the signed entry: the transaction rolls back.
      const cut = {
        appendIn: async () => {
          throw new Error('the desk stopped');
        },
      };
      await expect(importSoloDesk(team.db, cut, 'desk-a', await team.state(), team.alice, SOLO)).rejects.toThrow(
        'the desk stopped',
      );
      expect([
        await rows(team, 'solo_movements'),
        await rows(team, 'solo_audit'),
        await rows(team, 'solo_import'),
      ]).toEqual([0, 0, 0]);
      await importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, SOLO);
      expect((await audit.verify(await team.state())).ok).toBe(true);
    });
  });

  describe('a database user who edits the imported rows', () => {
    it('an imported movement changed, or an audit entry removed, fails the chain’s verification', async () => {
      await withOwnTeam(async (team) => {
        const audit = deskA(team);
        await importSoloDesk(team.db, audit, 'desk-a', await team.state(), team.alice, SOLO);
        await dba(
          team.database,
          `UPDATE solo_movements SET body = replace(body, '"12.5"', '"1250"') WHERE id = 'mv_1'`,
        );
        const edited = await audit.chain(await team.state());
        expect(edited.verdict).toEqual({
          ok: false,
          problem:
            'The imported solo journal differs from what audit entry 0 signed (rows were edited, added or removed in the database).',
        });
        expect(edited.entries[0]?.verified).toBe(false);
        await dba(
          team.database,
          `UPDATE solo_movements SET body = replace(body, '"1250"', '"12.5"') WHERE id = 'mv_1'`,
        );
        expect((await audit.verify(await team.state())).ok).toBe(true);
        await dba(team.database, 'DELETE FROM solo_audit WHERE n = 1');
        expect(await audit.verify(await team.state())).toMatchObject({
          ok: false,
          problem: expect.stringContaining('The imported solo audit log differs from what audit entry 0 signed'),
        });
      });
    });

    it('imported rows written straight into the database, with no signed import entry, fail', async () => {
      await withOwnTeam(async (team) => {
        await dba(
          team.database,
          `INSERT INTO solo_movements (n, id, client_id, profile_id, kind, state, needs_lookup, body)
           VALUES (0, 'mv_f', 'cf', 'p1', 'withdrawal', 'done', false, '{}')`,
        );
        expect(await deskA(team).verify(await team.state())).toEqual({
          ok: false,
          problem:
            'The team holds an imported solo journal that no signed import entry vouches for (it was written in the database).',
        });
      });
    });
  });
});
