import { describe, expect, it } from 'vitest';
import { migrate, TEAM_SCHEMA_VERSION } from './schema';
import { skipWithoutPostgres, withTestPostgres } from './testing/postgres';
import { openTestDatabase } from './testing/team';

describe.skipIf(skipWithoutPostgres('team schema.test'))('team schema migrations', () => {
  const pg = withTestPostgres();

  it('three desks starting at once on an empty database: the schema is applied exactly once', async () => {
    const database = await pg.server.createDatabase();
    const desks = [1, 2, 3].map(() => openTestDatabase(pg.server, database));
    try {
      const applied = await Promise.all(desks.map((db) => migrate(db)));
      // One desk applied every version; the others waited on the lock and found nothing to do.
      expect(applied.flat().sort()).toEqual(Array.from({ length: TEAM_SCHEMA_VERSION }, (_, i) => i + 1));
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
      const rows = await desks[0]!.query<{ version: number }>('SELECT version FROM team_schema ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(Array.from({ length: TEAM_SCHEMA_VERSION }, (_, i) => i + 1));
      // Starting again changes nothing.
      expect(await migrate(desks[1]!)).toEqual([]);
    } finally {
      await Promise.all(desks.map((db) => db.close()));
    }
  });

  it('a database a newer app migrated is refused, not written to', async () => {
    const database = await pg.server.createDatabase();
    const db = openTestDatabase(pg.server, database);
    try {
      await migrate(db);
      await db.query('INSERT INTO team_schema (version) VALUES ($1)', [TEAM_SCHEMA_VERSION + 1]);
      await expect(migrate(db)).rejects.toMatchObject({
        detail: {
          code: 'PRECONDITION',
          message: `The team database is at schema version ${TEAM_SCHEMA_VERSION + 1}, newer than this desk knows (${TEAM_SCHEMA_VERSION}).`,
        },
      });
    } finally {
      await db.close();
    }
  });
});
