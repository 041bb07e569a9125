/**
 * The first desk imports its solo journal into the team it creates (docs/team.md, "Importing the
 * first desk's journal"): a whole core that has worked alone — a withdrawal sent, its audit log —
 * creates a team in Settings → Team with the import chosen, as its window calls it. Its Activity then
 * shows the team's audit chain with the signed import entry, verified; a row of the imported journal
 * edited in the database makes it fail.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, startTestSandbox, type TestSandbox } from '../../sandbox/testing/harness';
import type { TeamAuditChain } from '../../shared/contract/team';
import { skipWithoutPostgres, withTestPostgres } from '../team/testing/postgres';
import { type RendererCalls, rendererCalls, startTestCore, type TestCore } from '../testing/core';
import { ALICE, fund } from '../testing/teamDesks';

describe.skipIf(skipWithoutPostgres('teamDesk import.integration.test'))(
  'a solo desk imported into its new team',
  () => {
    const pg = withTestPostgres();
    let sandbox: TestSandbox;
    let core: TestCore;
    let desk: RendererCalls;
    let database = '';
    const dba = async (text: string) => {
      const client = await pg.server.admin(database);
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };

    beforeAll(async () => {
      sandbox = await startTestSandbox({ seed: 22 });
      core = await startTestCore(sandbox, { watchIntervalMs: 0, bootstrapOperator: ALICE });
      desk = rendererCalls(() => core.core);
      database = await pg.server.createDatabase();
    }, 120_000);
    afterAll(async () => {
      await core?.close();
      await sandbox?.close();
    });

    it('its movements and audit log arrive signed by the administrator, and the team’s chain verifies them', async () => {
      await fund(sandbox, '1000');
      const address = `TImportDeskAddr${'x'.repeat(19)}`;
      await control(sandbox, '/saved_addresses', { user_id: sandbox.userId, currency: 'USDT', chain: 'TRX', address });
      const sent = await desk.value<{ withdrawOrderId: string }>('funding.withdraw', {
        requestKey: randomUUID(),
        currency: 'USDT',
        chain: 'TRX',
        address,
        amount: '12',
      });
      const { user, password, host, port } = pg.server;
      await desk.value('team.create', {
        url: `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}?sslmode=disable`,
        name: 'Imported firm',
        passphrase: ALICE.passphrase,
        importJournal: true,
      });

      const chain = await desk.value<TeamAuditChain>('team.auditChain', {});
      expect(chain).toMatchObject({ ok: true, count: 1 });
      const [entry] = chain.entries;
      expect(entry).toMatchObject({
        action: 'team.importSoloDesk',
        operatorName: 'Alice',
        thisDesk: true,
        signed: true,
        verified: true,
      });
      expect(JSON.parse(entry!.params)).toMatchObject({ movements: { count: 1, inFlight: 0 } });
      const imported = await dba('SELECT client_id, state, needs_lookup FROM solo_movements');
      expect(imported).toEqual([{ client_id: sent.withdrawOrderId, state: 'done', needs_lookup: false }]);

      // A second import is refused, and changes nothing.
      expect(await desk.call('team.importJournal', {})).toMatchObject({
        ok: false,
        error: {
          message: 'This team already holds an imported solo journal: a team imports one desk’s journal, once.',
        },
      });
      expect((await desk.value<TeamAuditChain>('team.auditChain', {})).count).toBe(1);

      // A database user lowers the imported withdrawal's amount: the chain no longer verifies it.
      await dba(`UPDATE solo_movements SET body = replace(body, '"12"', '"1"')`);
      expect(await desk.value<TeamAuditChain>('team.auditChain', {})).toMatchObject({
        ok: false,
        problem:
          'The imported solo journal differs from what audit entry 0 signed (rows were edited, added or removed in the database).',
        entries: [{ action: 'team.importSoloDesk', verified: false }],
      });
    });

    it('a team created without the import imports the journal afterwards, while it is still empty', async () => {
      const later = await startTestCore(sandbox, { watchIntervalMs: 0, bootstrapOperator: ALICE });
      try {
        const calls = rendererCalls(() => later.core);
        const laterDatabase = await pg.server.createDatabase();
        const { user, password, host, port } = pg.server;
        await calls.value('team.create', {
          url: `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${laterDatabase}?sslmode=disable`,
          name: 'Firm imported later',
          passphrase: ALICE.passphrase,
        });
        expect((await calls.value<TeamAuditChain>('team.auditChain', {})).count).toBe(0);
        await calls.value('team.importJournal', {});
        expect(await calls.value<TeamAuditChain>('team.auditChain', {})).toMatchObject({
          ok: true,
          count: 1,
          entries: [{ action: 'team.importSoloDesk', operatorName: 'Alice', verified: true }],
        });
      } finally {
        await later.close();
      }
    });
  },
);
