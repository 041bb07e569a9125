import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/format/csv';
import { transfersCsv } from './TransferHistory';

describe('transfers CSV', () => {
  it('states the time zone in the title and writes each time with its offset', () => {
    const csv = transfersCsv(
      [
        {
          id: 'j1',
          time: Date.UTC(2026, 0, 2, 3, 4, 5),
          kind: 'mainSub',
          from: 'Main · spot',
          to: 'Sub 1000002 · spot',
          currency: 'USDT',
          amount: '1000.5',
          state: 'done',
          stateText: 'Done',
          clientOrderId: 'c-1',
          source: 'journal',
        },
      ],
      'UTC+8',
    );
    const [header, row] = parseCsv(csv);
    expect(header).toEqual([
      'Time (UTC+8)',
      'Kind',
      'From',
      'To',
      'Currency',
      'Amount',
      'Status',
      'Client id',
      'Recorded by',
    ]);
    expect(row).toEqual([
      '2026-01-02T11:04:05+08:00',
      'Main ↔ sub',
      'Main · spot',
      'Sub 1000002 · spot',
      'USDT',
      '1000.5',
      'Done',
      'c-1',
      'this app',
    ]);
  });
});
