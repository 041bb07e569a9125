import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiFailure } from '../http/errors';
import { type Db, openDatabase } from './db';
import { Ledger } from './ledger';

let db: Db;
let ledger: Ledger;
const tx = <T>(fn: () => T): T => db.transaction(fn)();
const spot = { userId: 1, account: 'spot' as const, currency: 'USDT' };
const margin = { userId: 1, account: 'margin' as const, currency: 'USDT', pair: 'BTC_USDT' };

beforeEach(() => {
  db = openDatabase(null);
  ledger = new Ledger(db, () => 1_700_000_000_000);
});
afterEach(() => db.close());

describe('ledger', () => {
  it('credits, debits, locks and unlocks with exact decimals', () => {
    tx(() => ledger.credit(spot, '0.1', 'test'));
    tx(() => ledger.credit(spot, '0.2', 'test'));
    expect(ledger.get(spot).available).toBe('0.3');
    tx(() => ledger.lock(spot, '0.25'));
    expect(ledger.get(spot)).toMatchObject({ available: '0.05', locked: '0.25' });
    tx(() => ledger.unlock(spot, '0.05'));
    tx(() => ledger.debitLocked(spot, '0.2', 'fill'));
    expect(ledger.get(spot)).toMatchObject({ available: '0.1', locked: '0' });
  });

  it('never goes negative and leaves nothing behind on failure', () => {
    tx(() => ledger.credit(spot, '10', 'test'));
    expect(() => tx(() => ledger.debit(spot, '10.00000001', 'test'))).toThrow(ApiFailure);
    expect(() => tx(() => ledger.unlock(spot, '1'))).toThrow(ApiFailure);
    expect(() =>
      tx(() => {
        ledger.move(spot, margin, '4', 'dnw');
        ledger.debit(spot, '7', 'dnw'); // fails: the move above is rolled back with it
      }),
    ).toThrow(ApiFailure);
    expect(ledger.get(spot).available).toBe('10');
    expect(ledger.get(margin).available).toBe('0');
  });

  it('moves between two balances and writes both account-book entries', () => {
    tx(() => ledger.credit(spot, '10', 'seed'));
    tx(() => ledger.move(spot, margin, '2.5', 'dnw', 'tx-1'));
    tx(() => ledger.move(margin, spot, '0.5', 'dnw', 'tx-2'));
    expect(ledger.get(spot).available).toBe('8');
    expect(ledger.get(margin).available).toBe('2');
    const book = ledger.entries({
      userId: 1,
      account: 'margin',
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      limit: 10,
      offset: 0,
    });
    expect(book.map((e) => [e.change, e.balance, e.ref])).toEqual([
      ['-0.5', '2', 'tx-2'],
      ['2.5', '2.5', 'tx-1'],
    ]);
    expect(() => tx(() => ledger.move(spot, margin, '8.1', 'dnw', '', 'FUTURES_BALANCE_NOT_ENOUGH'))).toThrow(
      expect.objectContaining({ label: 'FUTURES_BALANCE_NOT_ENOUGH' }),
    );
  });

  it('refuses to move money outside a transaction or with a non-positive amount', () => {
    expect(() => ledger.credit(spot, '1', 'x')).toThrow(/transaction/);
    expect(() => tx(() => ledger.credit(spot, '0', 'x'))).toThrow();
    expect(() => tx(() => ledger.credit(spot, '-1', 'x'))).toThrow();
  });

  it('rejects a negative balance at the database level too', () => {
    expect(() =>
      db.prepare("INSERT INTO balances (user_id, account, currency, available) VALUES (9, 'spot', 'BTC', '-1')").run(),
    ).toThrow(/CHECK/);
  });
});

describe('ledger.tx: remembered balances never outlive a rollback', () => {
  const futures = { userId: 1, account: 'futures' as const, currency: 'USDT' };

  it('a rolled-back movement is forgotten: the next one sees the committed balance', () => {
    ledger.tx(() => ledger.credit(spot, '10', 'test'));
    ledger.tx(() => ledger.move(spot, futures, '1', 'dnw')); // remembered: spot 9, futures 1
    expect(() =>
      ledger.tx(() => {
        ledger.move(spot, futures, '5', 'dnw'); // would leave spot 4
        throw new Error('the request failed after moving');
      }),
    ).toThrow('the request failed');
    // A movement of 8 is only possible if spot still has 9 (not the rolled-back 4).
    ledger.tx(() => ledger.move(spot, futures, '8', 'dnw'));
    expect(ledger.get(spot).available).toBe('1');
    expect(ledger.get(futures).available).toBe('9');
    expect(() => ledger.tx(() => ledger.move(spot, futures, '1.5', 'dnw'))).toThrow(ApiFailure);
  });

  it('a nested rollback caught by the outer transaction is forgotten too', () => {
    ledger.tx(() => ledger.credit(spot, '10', 'test'));
    ledger.tx(() => {
      ledger.move(spot, futures, '2', 'dnw');
      try {
        ledger.tx(() => {
          ledger.move(spot, futures, '3', 'dnw');
          throw new Error('inner step failed');
        });
      } catch {
        // the outer transaction goes on without the inner step
      }
      ledger.debit(spot, '8', 'test'); // spot holds 8 after the inner rollback, not 5
    });
    expect(ledger.get(spot).available).toBe('0');
    expect(ledger.get(futures).available).toBe('2');
  });

  it('movements in a bare db.transaction() stay correct around remembered balances', () => {
    ledger.tx(() => ledger.credit(spot, '10', 'test'));
    ledger.tx(() => ledger.move(spot, futures, '1', 'dnw')); // remembered: spot 9, futures 1
    expect(() =>
      tx(() => {
        ledger.debit(spot, '6', 'test');
        throw new Error('rolled back outside ledger.tx');
      }),
    ).toThrow('rolled back');
    tx(() => ledger.debit(spot, '3', 'test')); // committed outside ledger.tx: 6 left
    ledger.tx(() => ledger.move(spot, futures, '6', 'dnw'));
    expect(ledger.get(spot).available).toBe('0');
    expect(ledger.get(futures).available).toBe('7');
    expect(() => ledger.tx(() => ledger.move(spot, futures, '1', 'dnw'))).toThrow(ApiFailure);
  });
});

describe('group commit: one commit per event-loop turn', () => {
  const futures = { userId: 1, account: 'futures' as const, currency: 'USDT' };
  const turnEnds = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('the movements of a turn commit together, after the turn; a failed one undoes only itself', async () => {
    const grouped = new Ledger(db, () => 1_700_000_000_000, { groupCommit: true });
    grouped.tx(() => grouped.credit(spot, '10', 'test'));
    grouped.tx(() => grouped.move(spot, futures, '1', 'dnw'));
    expect(() =>
      grouped.tx(() => {
        grouped.move(spot, futures, '5', 'dnw');
        throw new Error('this request failed after moving');
      }),
    ).toThrow('this request failed');
    grouped.tx(() => grouped.move(spot, futures, '2', 'dnw'));
    // Nothing is committed before the turn ends: whoever answers must wait for committed().
    const committed = grouped.committed();
    expect(committed).toBeInstanceOf(Promise);
    expect(db.inTransaction).toBe(true);
    await committed;
    expect(db.inTransaction).toBe(false);
    expect(grouped.committed()).toBeUndefined();
    expect(grouped.get(spot).available).toBe('7');
    expect(grouped.get(futures).available).toBe('3');
    // Both legs of the two movements that stood, none of the failed one.
    const legs = db.prepare("SELECT change FROM ledger_entries WHERE type = 'dnw' ORDER BY id").all();
    expect(legs).toEqual([{ change: '-1' }, { change: '1' }, { change: '-2' }, { change: '2' }]);
    await turnEnds();
  });

  it('a commit that fails rolls the whole turn back, rejects its waiters and tells the modules to reload', async () => {
    const grouped = new Ledger(db, () => 1_700_000_000_000, { groupCommit: true });
    grouped.tx(() => grouped.credit(spot, '10', 'test'));
    await grouped.committed();
    let reloads = 0;
    grouped.onRollback(() => {
      reloads += 1;
    });
    grouped.tx(() => grouped.move(spot, futures, '4', 'dnw'));
    const committed = grouped.committed()!;
    // A deferred foreign-key violation makes COMMIT itself fail, as a full disk would.
    db.pragma('defer_foreign_keys = ON');
    db.prepare(
      "INSERT INTO api_keys (key, user_id, secret, created_at, updated_at) VALUES ('k', 999, 's', 0, 0)",
    ).run();
    await expect(committed).rejects.toThrow(/FOREIGN KEY/);
    expect(reloads).toBe(1);
    expect(db.inTransaction).toBe(false);
    expect(grouped.get(spot).available).toBe('10');
    expect(grouped.get(futures).available).toBe('0');
    // The next movement sees the committed balance, not the remembered one of the lost turn.
    grouped.tx(() => grouped.move(spot, futures, '10', 'dnw'));
    await grouped.committed();
    expect(grouped.get(spot).available).toBe('0');
  });
});
