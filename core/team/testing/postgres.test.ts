import { describe, expect, it } from 'vitest';
import { skipWithoutPostgres, withTestPostgres } from './postgres';

describe.skipIf(skipWithoutPostgres('postgres.test'))('the test PostgreSQL', () => {
  const pg = withTestPostgres({ tls: true });

  it('answers on loopback with the password, keeps its data across a stop and a start', async () => {
    const database = await pg.server.createDatabase();
    const client = await pg.server.admin(database);
    await client.query('CREATE TABLE t (v text)');
    await client.query("INSERT INTO t VALUES ('kept')");
    await client.end();
    await pg.server.stop();
    await expect(pg.server.admin(database)).rejects.toThrow(/ECONNREFUSED/);
    await pg.server.start();
    const again = await pg.server.admin(database);
    expect((await again.query('SELECT v FROM t')).rows).toEqual([{ v: 'kept' }]);
    await again.end();
  });
});
