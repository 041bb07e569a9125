import { describe, expect, it } from 'vitest';
import { TeamAudit } from './audit';
import { canonicalJson, sha256 } from './canonical';
import type { AuditEntry } from './records';
import { skipWithoutPostgres } from './testing/postgres';
import { withTestTeam } from './testing/team';

describe.skipIf(skipWithoutPostgres('team audit.test'))('the team audit chain', () => {
  const file = withTestTeam();
  const { ownTeam: withOwnTeam, dba } = file;

  it('two desks appending at once make one chain with no seq twice; operators sign their entries', async () => {
    const t = file.team;
    const deskA = new TeamAudit(t.db, t.team.id, 'desk-a');
    const deskB = new TeamAudit(t.desk(), t.team.id, 'desk-b');
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? deskA : deskB).append(
          { action: 'approvals.approve', params: { movement: `mv_${i}` }, outcome: 'ok' },
          i % 3 ? t.dave : undefined,
        ),
      ),
    );
    const verdict = await deskA.verify(await t.state());
    expect(verdict).toMatchObject({ ok: true, entries: 10, head: { seq: 9 } });
  });

  describe('a database user who edits rows', () => {
    it('rewriting a signed entry (who approved) fails, even with its hashes recomputed', async () => {
      await withOwnTeam(async (team) => {
        const audit = new TeamAudit(team.db, team.team.id, 'desk-a');
        await audit.append({ action: 'approvals.approve', params: { movement: 'mv_1' }, outcome: 'ok' }, team.dave);
        const [row] = await dba(team.database, 'SELECT body FROM audit WHERE seq = 0');
        const rewritten = { ...(JSON.parse(row!.body as string) as AuditEntry), operator: 'bob' };
        const body = canonicalJson(rewritten);
        await dba(team.database, `UPDATE audit SET body = $1, hash = $2, operator_id = 'bob' WHERE seq = 0`, [
          body,
          sha256(body),
        ]);
        expect(await audit.verify(await team.state())).toEqual({
          ok: false,
          problem: "Audit entry 0: its operator's signature does not verify (it was edited or added in the database)",
        });
      });
    });

    it('what Activity shows: entries before the edited one verified, it and every one after it not', async () => {
      await withOwnTeam(async (team) => {
        const audit = new TeamAudit(team.db, team.team.id, 'desk-a');
        await audit.append({ action: 'commands.submit', params: { movement: 'mv_1' }, outcome: 'ok' }, team.dave);
        await audit.append({ action: 'approvals.approve', params: { movement: 'mv_1' }, outcome: 'ok' }, team.dave);
        await audit.append({ action: 'movements.expired', params: { movement: 'mv_2' }, outcome: 'ok' });
        const state = await team.state();
        const intact = await audit.chain(state);
        expect(intact.verdict).toMatchObject({ ok: true, entries: 3 });
        expect(intact.entries.map((e) => [e.entry.seq, e.signed, e.verified])).toEqual([
          [0, true, true],
          [1, true, true],
          [2, false, true],
        ]);
        // The approval's movement rewritten in the database, its own hash recomputed.
        const [row] = await dba(team.database, 'SELECT body FROM audit WHERE seq = 1');
        const body = canonicalJson({
          ...(JSON.parse(row!.body as string) as AuditEntry),
          params: { movement: 'mv_9' },
        });
        await dba(team.database, 'UPDATE audit SET body = $1, hash = $2 WHERE seq = 1', [body, sha256(body)]);
        const edited = await audit.chain(state);
        expect(edited.verdict).toEqual({
          ok: false,
          problem: "Audit entry 1: its operator's signature does not verify (it was edited or added in the database)",
        });
        expect(edited.entries.map((e) => [e.entry.seq, e.verified])).toEqual([
          [0, true],
          [1, false],
          [2, false],
        ]);
      });
    });

    it('an entry removed in the middle breaks the chain; the newest cut off is caught by the anchor', async () => {
      await withOwnTeam(async (team) => {
        const audit = new TeamAudit(team.db, team.team.id, 'desk-a');
        for (let i = 0; i < 3; i++) await audit.append({ action: 'policies.set', params: { n: i }, outcome: 'ok' });
        const anchor = await audit.append({
          action: 'operators.changeRole',
          params: { operator: 'dave' },
          outcome: 'ok',
        });
        await dba(team.database, 'DELETE FROM audit WHERE seq = $1', [anchor.seq]);
        const state = await team.state();
        expect((await audit.verify(state)).ok).toBe(true);
        expect(await audit.verify(state, anchor)).toEqual({
          ok: false,
          problem:
            'The audit chain no longer contains entry 3 as this desk verified it: entries were removed or rewritten.',
        });
        await dba(team.database, 'DELETE FROM audit WHERE seq = 1');
        expect(await audit.verify(state)).toEqual({ ok: false, problem: 'Audit entry 1: missing or malformed' });
      });
    });
  });
});
