import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_COLUMNS, BATCH_TOO_LARGE_MESSAGE, type BatchRowInput } from '../../shared/contract/bulk';
import { decryptKeyFile, encryptKeyFile } from '../subAccounts/keyFile';
import { parseAccount, parseBatchText, rowToRecord } from './csv';
import { BATCH_EXAMPLE_CSV } from './example';
import { requestKeyOf } from './store';
import { type BatchFacts, validateBatch } from './validate';

const ROOT = join(import.meta.dirname, '../..');

// --- generators ------------------------------------------------------------------------------
const amount = fc
  .tuple(
    fc.integer({ min: 0, max: 9_999_999 }),
    fc.integer({ min: 0, max: 8 }),
    fc.integer({ min: 1, max: 99_999_999 }),
  )
  .map(([int, places, frac]) => {
    const f = String(frac).padStart(8, '0').slice(0, places).replace(/0+$/, '');
    const text = f ? `${int}.${f}` : String(int);
    return /[1-9]/.test(text) ? text : '1';
  });
const currency = fc.constantFrom('USDT', 'BTC', 'ETH', 'GT');
const uid = fc.integer({ min: 10_000, max: 99_999 });
const reference = fc.string({ maxLength: 20 }).map((s) => s.replace(/[\p{Cc}]/gu, '').trim());
const account = fc.oneof(
  fc.constant({ owner: 'main' as const, account: 'spot' as const }),
  fc.constant({ owner: 'main' as const, account: 'options' as const }),
  fc.constant({ owner: 'main' as const, account: 'margin' as const, pair: 'BTC_USDT' }),
  fc.constant({ owner: 'main' as const, account: 'futures' as const, settle: 'usdt' }),
  uid.map((owner) => ({ owner, account: 'spot' as const })),
  uid.map((owner) => ({ owner, account: 'futures' as const })),
);
const row: fc.Arbitrary<BatchRowInput> = fc
  .oneof(
    fc.record({ type: fc.constant('transfer' as const), currency, amount, from: account, to: account, reference }),
    fc.record({ type: fc.constant('push' as const), currency, amount, receiveUid: uid, reference }),
    fc.record({
      type: fc.constant('withdrawal' as const),
      currency,
      amount,
      chain: fc.constantFrom('TRX', 'ETH'),
      address: fc.stringMatching(/^[A-Za-z0-9]{10,40}$/),
      memo: fc.option(fc.stringMatching(/^[0-9]{1,10}$/), { nil: undefined }),
      reference,
    }),
  )
  .map((r) => {
    const { reference: ref, ...rest } = r as BatchRowInput & { memo?: string };
    const clean = { ...rest } as Record<string, unknown>;
    if (clean.memo === undefined) delete clean.memo;
    return (ref ? { ...clean, reference: ref } : clean) as BatchRowInput;
  });

describe('parseBatchText (property)', () => {
  it('reads back every row it was given, whatever the separator, BOM or line ends', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(',', ';', '\t'),
        fc.boolean(),
        fc.constantFrom('\r\n', '\n'),
        (rows, separator, bom, eol) => {
          // The app's own CSV writer quotes what needs quotes; re-separate its fields.
          const lines = [BATCH_COLUMNS, ...rows.map((r) => BATCH_COLUMNS.map((c) => rowToRecord(r)[c]))].map((cells) =>
            cells
              .map((cell) =>
                /["\r\n,;\t]/.test(cell) || /^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell,
              )
              .join(separator),
          );
          const text = `${bom ? '\uFEFF' : ''}${lines.join(eol)}${eol}`;
          const parsed = parseBatchText(text);
          expect(parsed.fileProblems).toEqual([]);
          expect(parsed.rows.map((r) => r.errors)).toEqual(rows.map(() => []));
          expect(parsed.rows.map((r) => r.input)).toEqual(rows);
          expect(parsed.rows.map((r) => r.row)).toEqual(rows.map((_, i) => i + 2));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary text and always explains what it refuses', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const parsed = parseBatchText(`type,currency,amount,from,to\n${text}`);
        for (const r of parsed.rows) if (!r.input) expect(r.errors.length).toBeGreaterThan(0);
        for (const p of parsed.fileProblems) expect(p.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('an account reads back as it is written', () => {
    fc.assert(
      fc.property(account, currency, (ref, cur) => {
        const code = rowToRecord({ type: 'transfer', currency: cur, amount: '1', from: ref, to: ref }).from;
        expect(parseAccount(code, cur)).toEqual({ ok: true, ref });
      }),
    );
  });
});

describe('parseBatchText (bad files)', () => {
  const header = 'type,currency,amount,from,to,chain,memo,reference\n';
  it('names missing and unknown columns, changes nothing', () => {
    expect(parseBatchText('type,currency,from,to\ntransfer,USDT,spot,sub:1\n').fileProblems).toEqual([
      { row: 1, message: 'Missing column: amount.' },
    ]);
    const unknown = parseBatchText('type,currency,amount,colour\ntransfer,USDT,1,red\n');
    expect(unknown.rows).toEqual([]);
    expect(unknown.fileProblems[0]?.message).toMatch(/Unknown column “colour”/);
    expect(parseBatchText('foo,bar\n1,2\n').fileProblems[0]?.message).toMatch(/not a header/);
  });
  it('refuses text that was not UTF-8, an empty file and a file too large, in one message', () => {
    expect(parseBatchText(`${header}transfer,USDT,1,spot,sub:1,,,caf\uFFFD\n`).fileProblems[0]?.message).toMatch(
      /not UTF-8/,
    );
    expect(parseBatchText('').fileProblems[0]?.message).toBe('The file is empty.');
    const big = `${header}${'transfer,USDT,1,spot,sub:10002,,,x\n'.repeat(5_001)}`;
    expect(parseBatchText(big).fileProblems).toEqual([{ message: BATCH_TOO_LARGE_MESSAGE }]);
    const huge = `${header}${`transfer,USDT,1,spot,sub:10002,,,${'x'.repeat(60)}\n`.repeat(40_000)}`;
    expect(parseBatchText(huge).fileProblems).toEqual([{ message: BATCH_TOO_LARGE_MESSAGE }]);
  });
  it('a comma in an unquoted amount is a row error naming the quotes; quoted it is fine', () => {
    const parsed = parseBatchText(
      `${header}transfer,USDT,1,000,spot,sub:10002,,,x\ntransfer,USDT,"1,000",spot,sub:10002,,,y\n`,
    );
    expect(parsed.rows[0]?.errors.join(' ')).toMatch(/needs quotes/);
    expect(parsed.rows[1]?.input?.amount).toBe('1000');
  });
  it('a semicolon file with a decimal comma is refused with the amount rule, not misread', () => {
    const parsed = parseBatchText('type;currency;amount;from;to\ntransfer;USDT;1,5;spot;sub:10002\n');
    expect(parsed.rows[0]?.input).toBeUndefined();
    expect(parsed.rows[0]?.errors[0]).toMatch(/^Amount:/);
  });
  it('pasted spreadsheet rows without a header use the documented order', () => {
    const parsed = parseBatchText('transfer\tUSDT\t10\tspot\tsub:10002\t\t\tp1\npush\tUSDT\t5\t\tuid:2000001\t\t\t\n');
    expect(parsed.fileProblems).toEqual([]);
    expect(parsed.rows.map((r) => r.input?.type)).toEqual(['transfer', 'push']);
    expect(parsed.rows[0]?.row).toBe(1);
  });
  it('an unclosed quote is a file problem', () => {
    expect(parseBatchText(`${header}transfer,USDT,"10,spot,sub:10002,,,x\n`).fileProblems[0]?.message).toMatch(/quote/);
  });
});

const facts = (available: Record<string, string>): BatchFacts => ({
  subAccounts: new Map([
    [10002, { loginName: 'desk_a', frozen: false }],
    [10003, { loginName: 'desk_b', frozen: true }],
  ]),
  chains: new Map(),
  rules: new Map(),
  saved: new Map(),
  available: new Map(Object.entries(available)),
  mainUserId: 1,
});
const MAIN_USDT = JSON.stringify(['main', 'spot', '', '', 'USDT']);

describe('validateBatch', () => {
  it('the rows leaving one account are checked together: an error exactly when their sum exceeds what is available', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 12 }), amount, (amounts, available) => {
        const text = `type,currency,amount,from,to,reference\n${amounts.map((a, i) => `transfer,USDT,${a},spot,sub:10002,r${i}`).join('\n')}\n`;
        const preview = validateBatch(parseBatchText(text).rows, facts({ [MAIN_USDT]: available }));
        const sum = amounts.reduce((s, a) => s.plus(a), new Decimal(0));
        const over = sum.gt(available);
        expect(preview.rows.every((r) => r.errors.some((e) => /available/.test(e)))).toBe(over);
        expect(preview.totals[0]?.total).toBe(sum.toFixed());
      }),
      { numRuns: 200 },
    );
  });
  it('duplicates, frozen sub-accounts, unknown sub-accounts and a push to a sub-account are row errors', () => {
    const text = [
      'type,currency,amount,from,to,reference',
      'transfer,USDT,1,spot,sub:10002,a',
      'transfer,USDT,1,spot,sub:10002,a',
      'transfer,USDT,1,spot,sub:10003,b',
      'transfer,USDT,1,spot,sub:99999,c',
      'push,USDT,1,,uid:10002,d',
      'transfer,USDT,1,futures:usdt,sub:10002,e',
      'transfer,USDT,1.123456789,spot,sub:10002,f',
    ].join('\n');
    const preview = validateBatch(parseBatchText(text).rows, facts({ [MAIN_USDT]: '100' }));
    const errors = preview.rows.map((r) => r.errors.join(' '));
    expect(errors[0]).toBe('');
    expect(errors[1]).toMatch(/Same as row 2/);
    expect(errors[2]).toMatch(/frozen/);
    expect(errors[3]).toMatch(/not one of this account’s sub-accounts/);
    expect(errors[4]).toMatch(/use a transfer/);
    expect(errors[5]).toMatch(/main side is its spot account/);
    expect(errors[6]).toMatch(/at most 8 decimals|Amount:/);
  });
  it('withdrawals go only to saved, verified destinations with the chain’s precision, minimum and fee in the sum', () => {
    const f: BatchFacts = {
      ...facts({ [MAIN_USDT]: '102' }),
      chains: new Map([
        [
          'USDT',
          [
            {
              chain: 'TRX',
              nameEn: '',
              nameCn: '',
              disabled: false,
              depositDisabled: false,
              withdrawDisabled: false,
              decimals: 6,
              usesMemo: false,
            },
          ],
        ],
      ]),
      rules: new Map([
        ['USDT', { currency: 'USDT', feeFixedOnChains: { TRX: '1' }, feePercentOnChains: {}, minAmount: '10' }],
      ]),
      saved: new Map([
        ['USDT', [{ currency: 'USDT', chain: 'TRX', address: 'TSaved1', verified: true, previousWithdrawals: 1 }]],
      ]),
    };
    const text = [
      'type,currency,amount,to,chain,reference',
      'withdrawal,USDT,50,TSaved1,TRX,a',
      'withdrawal,USDT,50,TSaved1,TRX,b',
      'withdrawal,USDT,5,TSaved1,TRX,c',
      'withdrawal,USDT,20,TOther,TRX,d',
      'withdrawal,USDT,20.1234567,TSaved1,TRX,e',
    ].join('\n');
    const preview = validateBatch(parseBatchText(text).rows, f);
    const errors = preview.rows.map((r) => r.errors.join(' '));
    // 50+1 + 50+1 + 5+1 + 20+1 + 20.1234567+1 = 150.1234567 > 102
    expect(errors[0]).toMatch(/together take 150\.1234567 USDT/);
    expect(errors[2]).toMatch(/minimum withdrawal is 10 USDT/);
    expect(errors[3]).toMatch(/not among the saved/);
    expect(errors[4]).toMatch(/at most 6 decimals/);
    expect(preview.rows[0]?.fee).toBe('1');
  });
});

describe('batch helpers', () => {
  it('the example file is the one the app offers, and it reads without file problems', () => {
    expect(readFileSync(join(ROOT, 'assets/batch-example.csv'), 'utf8')).toBe(BATCH_EXAMPLE_CSV);
    const parsed = parseBatchText(BATCH_EXAMPLE_CSV);
    expect(parsed.fileProblems).toEqual([]);
    expect(parsed.rows.every((r) => r.errors.length === 0)).toBe(true);
  });
  it('request keys are deterministic UUIDs, one per batch, row and attempt', () => {
    const key = requestKeyOf('b1', 7, 0);
    expect(key).toBe(requestKeyOf('b1', 7, 0));
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set([requestKeyOf('b1', 7, 1), requestKeyOf('b1', 8, 0), requestKeyOf('b2', 7, 0), key]).size).toBe(4);
  });
  it('the key file opens with its passphrase only', () => {
    const entries = [
      { userId: 1, key: 'k', secret: 's3cret', replaces: 'old', ipWhitelist: ['1.2.3.4'], createdAt: 'now' },
    ];
    const file = encryptKeyFile(entries, 'correct horse battery');
    expect(JSON.stringify(file)).not.toContain('s3cret');
    expect(decryptKeyFile(file, 'correct horse battery')).toEqual(entries);
    expect(() => decryptKeyFile(file, 'wrong passphrase!')).toThrow();
  });
});
