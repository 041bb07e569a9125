import { describe, expect, it, vi } from 'vitest';
import { openJournalDb, statement } from './db';
import { IntentRepository, type NewIntent } from './intents';

const intent = (id: string): NewIntent => ({
  id,
  profileId: 'p1',
  kind: 'withdrawal',
  clientId: `c-${id}`,
  currency: 'USDT',
  amount: '12.5',
  params: '{}',
  at: 1_000,
  requestKey: `rk-${id}`,
  earliestPlatformMs: 1_000,
  origin: 'operator',
});

describe('statement(db, sql): compiled once per connection', () => {
  it('a store reading and writing again compiles nothing new, and reads what was written since', () => {
    const db = openJournalDb(':memory:');
    const intents = new IntentRepository(db);
    const prepare = vi.spyOn(db, 'prepare');
    intents.insert(intent('i1'));
    expect(intents.get('i1')?.amount).toBe('12.5');
    const compiledOnce = prepare.mock.calls.length;
    expect(compiledOnce).toBe(2);

    intents.insert(intent('i2'));
    intents.markSent(intents.get('i2') as NonNullable<ReturnType<IntentRepository['get']>>, 'req-2', 2_000);
    expect(intents.get('i2')).toMatchObject({ state: 'sent', request_id: 'req-2', attempts: 1 });
    // Only markSent's UPDATE was new: the INSERT and the SELECT were reused.
    expect(prepare.mock.calls.length).toBe(compiledOnce + 1);
  });

  it('each connection has its own statements', () => {
    const one = openJournalDb(':memory:');
    const two = openJournalDb(':memory:');
    const sql = 'SELECT COUNT(*) AS n FROM intents';
    expect(statement(one, sql)).toBe(statement(one, sql));
    expect(statement(two, sql)).not.toBe(statement(one, sql));
    new IntentRepository(one).insert(intent('i1'));
    expect(statement<[], { n: number }>(one, sql).get()?.n).toBe(1);
    expect(statement<[], { n: number }>(two, sql).get()?.n).toBe(0);
  });

  it('a statement compiled before a column is added returns the new column (SQLite recompiles it)', () => {
    const db = openJournalDb(':memory:');
    const intents = new IntentRepository(db);
    intents.insert(intent('i1'));
    expect(intents.get('i1')).not.toHaveProperty('added_later');
    db.exec("ALTER TABLE intents ADD COLUMN added_later TEXT DEFAULT 'yes'");
    expect(intents.get('i1')).toMatchObject({ id: 'i1', added_later: 'yes' });
  });
});
