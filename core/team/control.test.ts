import { describe, expect, it } from 'vitest';
import { sha256 } from './canonical';
import { verifyControlChain } from './controlChain';
import type { ControlChange, ControlLink } from './records';
import { skipWithoutPostgres } from './testing/postgres';
import { withTestTeam } from './testing/team';

describe.skipIf(skipWithoutPostgres('team control.test'))('the control chain on PostgreSQL', () => {
  const file = withTestTeam();
  /** A fresh team for a test that edits the database as its administrator would. */
  const withOwnTeam = file.ownTeam;

  it('rebuilds operators, roles, keys and policies from signed records alone', async () => {
    const state = await file.team.state();
    expect(state.name).toBe('Test firm');
    expect(state.fingerprint).toBe(file.team.team.fingerprint);
    expect(state.head.seq).toBe(5);
    expect(state.fourEyes).toBe(true);
    expect(state.operators().map((o) => [o.name, o.role])).toEqual([
      ['Alice', 'admin'],
      ['Bob', 'admin'],
      ['Carol', 'maker'],
      ['Dave', 'approver'],
      ['Erin', 'viewer'],
    ]);
    // Each version keeps when it started: Dave did not exist at seq 2.
    expect(state.operator('dave', 2)).toBeUndefined();
    expect(state.operator('dave', 3)?.role).toBe('approver');
    expect(state.policy('p1')?.version).toBe(1);
  });

  it('with one administrator, says four-eyes is not in force; once there are two, the preparer cannot apply alone', async () => {
    await withOwnTeam(async (team) => {
      const state = await team.state();
      // Alice applied Bob's enrolment herself (seq 1): allowed, the chain shows the team had one admin then.
      expect(state.operator('bob', 1)?.setBy).toBe('alice');
      const pending = await team.control.prepare(team.team.id, team.alice, {
        kind: 'operator.role',
        operatorId: 'erin',
        role: 'admin',
      });
      await expect(
        team.control.apply(pending.changeId, team.alice, { fingerprint: team.team.fingerprint }),
      ).rejects.toThrow(/applied by the administrator who prepared it, while the team had a second administrator/);
      // Nothing changed: still pending, Erin still a viewer.
      expect((await team.control.pending()).map((p) => p.changeId)).toEqual([pending.changeId]);
      expect((await team.state()).operator('erin')?.role).toBe('viewer');
      // A maker cannot apply it either; the other administrator can.
      await expect(
        team.control.apply(pending.changeId, team.carol, { fingerprint: team.team.fingerprint }),
      ).rejects.toThrow(/applied by someone who was not an administrator/);
      await team.control.apply(pending.changeId, team.bob, { fingerprint: team.team.fingerprint });
      expect((await team.state()).operator('erin')?.role).toBe('admin');
    });
  });

  it('a rejected change is never applied', async () => {
    await withOwnTeam(async (team) => {
      const state = await team.state();
      const pending = await team.control.prepare(team.team.id, team.bob, {
        kind: 'operator.remove',
        operatorId: 'dave',
      });
      expect(await team.control.reject(pending.changeId, team.alice, team.team.id, state.head.seq, 'Dave stays')).toBe(
        true,
      );
      await expect(
        team.control.apply(pending.changeId, team.alice, { fingerprint: team.team.fingerprint }),
      ).rejects.toThrow(/is rejected: it was not applied/);
      expect((await team.state()).operator('dave')?.role).toBe('approver');
    });
  });

  describe('a database user who edits rows', () => {
    it('raising a role in the stored change breaks its signature: the chain does not verify', async () => {
      await withOwnTeam(async (team) => {
        const dba = await file.server.admin(team.database);
        // seq 4 enrolled Erin as a viewer; make her an admin in the stored body.
        await dba.query(
          `UPDATE control_changes SET body = replace(body, '"role":"viewer"', '"role":"admin"')
            WHERE id = (SELECT change_id FROM control_chain WHERE seq = 4)`,
        );
        await dba.end();
        const verdict = await team.control.verified({ fingerprint: team.team.fingerprint });
        expect(verdict).toEqual({
          ok: false,
          problem: expect.stringMatching(/^Control change 4: the link applies another change/),
        });
      });
    });

    it('raising a role and recomputing the hashes still fails: the change is not signed by an administrator', async () => {
      await withOwnTeam(async (team) => {
        const dba = await file.server.admin(team.database);
        // The database user writes a whole new change and link making Erin an admin, signed by Erin's
        // own key (they cannot sign as Alice or Bob), hashes and links all correct.
        const [head] = (await dba.query('SELECT seq, body FROM control_chain ORDER BY seq DESC LIMIT 1')).rows;
        const change: ControlChange = {
          type: 'control.change',
          team: team.team.id,
          changeId: 'cc_forged',
          action: { kind: 'operator.role', operatorId: 'erin', role: 'admin' },
          preparedBy: 'erin',
          preparedAt: Date.now(),
        };
        const changeRecord = team.erin.sign(change);
        const link: ControlLink = {
          type: 'control.link',
          team: team.team.id,
          seq: Number(head.seq) + 1,
          prev: sha256(head.body),
          changeId: 'cc_forged',
          changeHash: sha256(changeRecord.body),
          appliedBy: 'erin',
          appliedAt: Date.now(),
        };
        const linkRecord = team.erin.sign(link);
        await dba.query(
          `INSERT INTO control_changes (id, kind, body, body_hash, prepared_by, signature, state, expires_at)
           VALUES ('cc_forged', 'operator.role', $1, $2, 'erin', $3, 'applied', now())`,
          [changeRecord.body, sha256(changeRecord.body), changeRecord.signature],
        );
        await dba.query(
          'INSERT INTO control_chain (seq, change_id, body, body_hash, applied_by, signature) VALUES ($1, $2, $3, $4, $5, $6)',
          [link.seq, 'cc_forged', linkRecord.body, sha256(linkRecord.body), 'erin', linkRecord.signature],
        );
        await dba.end();
        const verdict = await team.control.verified({ fingerprint: team.team.fingerprint });
        expect(verdict).toEqual({
          ok: false,
          problem: `Control change ${link.seq}: it was prepared by someone who was not an administrator`,
        });
      });
    });

    it('removing the newest change (a demotion) is caught by the anchor the desk kept', async () => {
      await withOwnTeam(async (team) => {
        const anchor = await team.change(
          { kind: 'operator.role', operatorId: 'dave', role: 'viewer' },
          team.alice,
          team.bob,
        );
        expect((await team.state(anchor)).operator('dave')?.role).toBe('viewer');
        const dba = await file.server.admin(team.database);
        await dba.query('DELETE FROM control_chain WHERE seq = $1', [anchor.seq]);
        await dba.end();
        // Without the anchor the shorter chain is consistent (Dave an approver again)…
        expect((await team.control.verified({ fingerprint: team.team.fingerprint })).ok).toBe(true);
        // …with it, the desk sees the change it verified is gone.
        const verdict = await team.control.verified({ fingerprint: team.team.fingerprint, anchor });
        expect(verdict).toEqual({
          ok: false,
          problem: expect.stringMatching(/no longer contains change 6 as this desk verified it/),
        });
      });
    });

    it('removing a link in the middle breaks the chain', async () => {
      await withOwnTeam(async (team) => {
        const dba = await file.server.admin(team.database);
        await dba.query('DELETE FROM control_chain WHERE seq = 2');
        expect(await team.control.verified({ fingerprint: team.team.fingerprint })).toEqual({
          ok: false,
          problem: 'Control change 2: missing (found 3 in its place)',
        });
        // Renumbering the rows does not help: each link signed its own seq.
        await dba.query('UPDATE control_chain SET seq = seq - 1 WHERE seq > 2');
        await dba.end();
        expect(await team.control.verified({ fingerprint: team.team.fingerprint })).toEqual({
          ok: false,
          problem: 'Control change 2: its link says seq 3',
        });
      });
    });

    it('a whole team of their own (a new genesis) does not match the fingerprint the desk pinned', async () => {
      await withOwnTeam(async (other) => {
        const links = await other.control.verified({ fingerprint: other.team.fingerprint });
        expect(links.ok).toBe(true);
        const verdict = await other.control.verified({ fingerprint: file.team.team.fingerprint });
        expect(verdict).toEqual({
          ok: false,
          problem: 'Control change 0: this is not the team this desk joined (its fingerprint differs)',
        });
      });
    });
  });

  it('an empty chain is no team', () => {
    expect(verifyControlChain([])).toEqual({ ok: false, problem: expect.stringMatching(/no genesis/) });
  });
});
