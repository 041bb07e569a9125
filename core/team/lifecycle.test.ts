import { describe, expect, it, vi } from 'vitest';
import { MemoryKeyStore } from '../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../operators/passphrase';
import { parseTeamUrl, readTeamPassword } from './connection';
import { createOperatorKey } from './identity';
import { joinTeam, openTeam, startTeam, type TeamIntegrity } from './lifecycle';
import { skipWithoutPostgres, withTestPostgres } from './testing/postgres';
import { manualTimers } from './testing/team';

describe.skipIf(skipWithoutPostgres('team lifecycle.test'))('a desk starting, joining and opening a team', () => {
  const pg = withTestPostgres();
  const options = { timers: manualTimers(), scryptCost: TEST_SCRYPT_COST };
  /** A new database's URL as a person types it: with the password. */
  const typedUrl = async () => {
    const database = await pg.server.createDatabase();
    const { user, password, host, port } = pg.server;
    return {
      database,
      url: `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}?sslmode=disable`,
    };
  };

  it('the first desk starts it, a second joins with the fingerprint, both see each other’s control changes', async () => {
    const { database, url: typed } = await typedUrl();
    const keysA = new MemoryKeyStore();
    const { settings: settingsA, admin } = await startTeam(
      { url: typed, teamName: 'Acme treasury', admin: { name: 'Alice', passphrase: 'alice passphrase' } },
      keysA,
      options,
    );
    // The URL kept has no password; the keychain has it.
    expect(settingsA.url).toBe(`${pg.server.url(database)}?sslmode=disable`);
    expect(await readTeamPassword(keysA, parseTeamUrl(settingsA.url).url)).toBe(pg.server.password);
    await expect(
      startTeam({ url: typed, teamName: 'Again', admin: { name: 'Mallory', passphrase: 'x' } }, keysA, options),
    ).rejects.toThrow(/already holds a team/);

    const keysB = new MemoryKeyStore();
    await expect(joinTeam({ url: typed, fingerprint: 'f'.repeat(64) }, keysB, options)).rejects.toThrow(
      /This desk cannot join: Control change 0: this is not the team this desk joined/,
    );
    const settingsB = await joinTeam({ url: typed, fingerprint: settingsA.fingerprint }, keysB, options);
    expect(settingsB).toMatchObject({ fingerprint: settingsA.fingerprint, controlAnchor: { seq: 0 } });
    expect(settingsB.deskId).not.toBe(settingsA.deskId);

    const deskA = await openTeam(settingsA, keysA, options);
    const heardOnB: string[] = [];
    const deskB = await openTeam(settingsB, keysB, { ...options, onChange: (c) => heardOnB.push(c.kind) });
    try {
      expect(
        deskB
          .state()
          .operators()
          .map((o) => o.name),
      ).toEqual(['Alice']);
      const bob = await createOperatorKey(keysB, deskB.state().team, 'op_bob', 'bob passphrase', TEST_SCRYPT_COST);
      const enrol = await deskA.control.prepare(deskA.state().team, admin, {
        kind: 'operator.enrol',
        operator: { id: 'op_bob', name: 'Bob', role: 'admin', publicKey: bob.publicKey },
      });
      await deskA.control.apply(enrol.changeId, admin, { fingerprint: settingsA.fingerprint });
      // Desk B verified the new link when it heard of it; its anchor moved with it.
      await vi.waitFor(() =>
        expect(
          deskB
            .state()
            .operators()
            .map((o) => o.name),
        ).toEqual(['Alice', 'Bob']),
      );
      expect(deskB.state().fourEyes).toBe(true);
      expect(deskB.settings().controlAnchor?.seq).toBe(1);
      expect(heardOnB).toEqual(['control.changed', 'control.changed']);
    } finally {
      await Promise.all([deskA.close(), deskB.close()]);
    }
  });

  it('a chain edited in the database: an open desk’s integrity turns, and no desk opens the team', async () => {
    const { database, url } = await typedUrl();
    const keys = new MemoryKeyStore();
    const { settings, admin } = await startTeam(
      { url, teamName: 'Acme', admin: { name: 'Alice', passphrase: 'p' } },
      keys,
      options,
    );
    const integrity: TeamIntegrity[] = [];
    const desk = await openTeam(settings, keys, { ...options, onIntegrity: (i) => integrity.push(i) });
    try {
      const dba = await pg.server.admin(database);
      await dba.query(`UPDATE control_changes SET body = replace(body, '"name":"Alice"', '"name":"Mallory"')`);
      await dba.end();
      // The next change anyone makes (here a prepared one) makes the desk verify again.
      await desk.control.prepare(desk.state().team, admin, {
        kind: 'desk.operation',
        operation: 'profiles.add',
        params: {},
      });
      await vi.waitFor(() => expect(integrity).toHaveLength(1));
      expect(desk.integrity()).toEqual({ ok: false, problem: expect.stringMatching(/^Control change 0: /) });
      // What it had verified stays what it acts on.
      expect(
        desk
          .state()
          .operators()
          .map((o) => o.name),
      ).toEqual(['Alice']);
      await expect(openTeam(settings, keys, options)).rejects.toThrow(
        /The team's control chain does not verify: Control change 0/,
      );
    } finally {
      await desk.close();
    }
  });
});
