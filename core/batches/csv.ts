/**
 * Reading a batch file: CSV (comma or semicolon) or rows pasted from a spreadsheet (tab-separated)
 * into batch rows. papaparse does the reading (quotes, quoted separators and line breaks, the
 * delimiter); this module maps the columns (docs/bulk.md) and says, per row and per file, what is
 * wrong. It never throws on input: every problem is a message with its row number.
 *
 * Row numbers are the line numbers a spreadsheet shows: the header is row 1, the first data row 2
 * (pasted rows without a header start at 1).
 */
import Papa from 'papaparse';
import type { z } from 'zod';
import {
  type AccountRef,
  BATCH_COLUMNS,
  BATCH_MAX_BYTES,
  BATCH_MAX_ROWS,
  BATCH_TOO_LARGE_MESSAGE,
  type BatchProblem,
  BatchRowInput,
  REQUIRED_COLUMNS,
} from '../../shared/contract/bulk';
import { parseAmountInput } from '../../shared/format/money';

export type BatchColumn = (typeof BATCH_COLUMNS)[number];

export interface ParsedRow {
  /** Line number in the file (header = 1). */
  readonly row: number;
  readonly raw: Record<string, string>;
  readonly input?: BatchRowInput;
  readonly errors: string[];
  readonly warnings: string[];
}

export interface ParsedBatch {
  readonly rows: ParsedRow[];
  readonly fileProblems: BatchProblem[];
}

const TYPES: Record<string, BatchRowInput['type']> = {
  transfer: 'transfer',
  push: 'push',
  withdrawal: 'withdrawal',
  withdraw: 'withdrawal',
};

const MAIN_ACCOUNTS = new Set(['spot', 'margin', 'futures', 'delivery', 'options']);
const SUB_ACCOUNTS = new Set(['spot', 'futures', 'delivery', 'options']);

/**
 * An account as written in a batch: `spot`, `main`, `margin:BTC_USDT`, `futures:usdt`,
 * `delivery:usdt`, `options` (the main account), `sub:10002` (its spot account) or
 * `sub:10002/futures` (spot, futures, delivery, options). A futures or delivery account without a
 * settle currency settles in the row's currency.
 */
export const parseAccount = (
  text: string,
  currency: string,
): { ok: true; ref: AccountRef } | { ok: false; message: string } => {
  const value = text.trim();
  const lower = value.toLowerCase();
  const bad = {
    ok: false as const,
    message: `“${value}” is not an account: write spot, margin:BTC_USDT, futures:usdt, delivery:usdt, options, sub:10002 or sub:10002/futures.`,
  };
  if (lower === '') return { ok: false, message: 'Say which account (e.g. spot or sub:10002/spot).' };
  const sub = /^sub:(\d{1,16})(?:\/([a-z_]+))?$/.exec(lower);
  if (sub) {
    const uid = Number(sub[1]);
    const account = sub[2] ?? 'spot';
    if (!Number.isSafeInteger(uid) || uid <= 0) return bad;
    if (!SUB_ACCOUNTS.has(account)) {
      return {
        ok: false,
        message: `A sub-account's ${account} account cannot be used: use spot, futures, delivery or options.`,
      };
    }
    return { ok: true, ref: { owner: uid, account: account as AccountRef['account'] } };
  }
  const main = /^(?:main\/)?([a-z]+)(?::([A-Za-z0-9_]+))?$/.exec(value.trim());
  const name = main?.[1]?.toLowerCase();
  if (lower === 'main') return { ok: true, ref: { owner: 'main', account: 'spot' } };
  if (!main || name === undefined || !MAIN_ACCOUNTS.has(name)) return bad;
  const detail = main[2];
  if (name === 'margin') {
    const pair = detail?.toUpperCase();
    if (!pair || !/^[A-Z0-9]+_[A-Z0-9]+$/.test(pair)) {
      return { ok: false, message: 'A margin account needs its market, e.g. margin:BTC_USDT.' };
    }
    return { ok: true, ref: { owner: 'main', account: 'margin', pair } };
  }
  if (name === 'futures' || name === 'delivery') {
    const settle = (detail ?? currency).toLowerCase();
    if (!/^[a-z0-9]{1,16}$/.test(settle))
      return { ok: false, message: `Write the settle currency, e.g. ${name}:usdt.` };
    return { ok: true, ref: { owner: 'main', account: name, settle } };
  }
  if (detail !== undefined) return bad;
  return { ok: true, ref: { owner: 'main', account: name as AccountRef['account'] } };
};

/** The account in plain words, as the preview, the progress table and the report show it. */
export const accountText = (ref: AccountRef): string => {
  const detail = ref.pair ?? ref.settle?.toUpperCase();
  const account = detail ? `${ref.account} ${detail}` : ref.account;
  return ref.owner === 'main' ? `Main · ${account}` : `Sub ${ref.owner} · ${account}`;
};

/** The account as a batch file writes it (the inverse of parseAccount). */
export const accountCode = (ref: AccountRef): string => {
  if (ref.owner !== 'main') return ref.account === 'spot' ? `sub:${ref.owner}` : `sub:${ref.owner}/${ref.account}`;
  if (ref.account === 'margin') return `margin:${ref.pair ?? ''}`;
  if (ref.account === 'futures' || ref.account === 'delivery') return `${ref.account}:${ref.settle ?? ''}`;
  return ref.account;
};

/** The row as a line of a batch file (used for duplicates, the example and tests). */
export const rowToRecord = (input: BatchRowInput): Record<BatchColumn, string> => {
  const base = { type: input.type, currency: input.currency, amount: input.amount, reference: input.reference ?? '' };
  switch (input.type) {
    case 'transfer':
      return { ...base, from: accountCode(input.from), to: accountCode(input.to), chain: '', memo: '' };
    case 'push':
      return { ...base, from: '', to: `uid:${input.receiveUid}`, chain: '', memo: '' };
    case 'withdrawal':
      return { ...base, from: '', to: input.address, chain: input.chain, memo: input.memo ?? '' };
  }
};

const issueText = (error: z.ZodError): string =>
  error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');

/** One data row (cells by column name) into a batch row, with its problems. */
export const readRow = (row: number, raw: Record<string, string>): ParsedRow => {
  const errors: string[] = [];
  const warnings: string[] = [];
  const cell = (name: BatchColumn) => (raw[name] ?? '').trim();
  const typeText = cell('type').toLowerCase();
  const type = TYPES[typeText];
  if (type === undefined) {
    errors.push(
      typeText === ''
        ? 'The type is missing: write transfer, push or withdrawal.'
        : `“${cell('type')}” is not a type: write transfer, push or withdrawal.`,
    );
  }
  const currency = cell('currency').toUpperCase();
  if (currency === '') errors.push('The currency is missing.');
  else if (!/^[A-Z0-9_.-]{1,32}$/.test(currency)) errors.push(`“${cell('currency')}” is not a currency symbol.`);
  const amount = parseAmountInput(cell('amount'));
  if (!amount.ok) errors.push(`Amount: ${amount.message}`);
  else if (!/[1-9]/.test(amount.value)) errors.push('Amount: the amount must be greater than zero.');
  const reference = cell('reference');
  if (reference.length > 64) errors.push('The reference has more than 64 characters.');

  let candidate: unknown;
  if (type === 'transfer') {
    const from = parseAccount(cell('from'), currency);
    const to = parseAccount(cell('to'), currency);
    if (!from.ok) errors.push(`From: ${from.message}`);
    if (!to.ok) errors.push(`To: ${to.message}`);
    for (const extra of ['chain', 'memo'] as const) {
      if (cell(extra) !== '') warnings.push(`The ${extra} column is only for withdrawals; it is ignored here.`);
    }
    if (from.ok && to.ok) candidate = { from: from.ref, to: to.ref };
  } else if (type === 'push') {
    const to = /^(?:uid:)?\s*(\d{1,16})$/i.exec(cell('to'));
    const from = cell('from').toLowerCase();
    if (from !== '' && from !== 'spot' && from !== 'main')
      errors.push('A UID transfer always leaves the main spot account: leave “from” empty.');
    if (!to) errors.push('To: write the receiving account’s user id, e.g. uid:2000001.');
    else candidate = { receiveUid: Number(to[1]) };
    for (const extra of ['chain', 'memo'] as const) {
      if (cell(extra) !== '') warnings.push(`The ${extra} column is only for withdrawals; it is ignored here.`);
    }
  } else if (type === 'withdrawal') {
    const from = cell('from').toLowerCase();
    if (from !== '' && from !== 'spot' && from !== 'main')
      errors.push('A withdrawal always leaves the main spot account: leave “from” empty.');
    if (cell('to') === '') errors.push('To: write the saved withdrawal address.');
    if (cell('chain') === '') errors.push('The chain (network) is missing, e.g. TRX.');
    candidate = {
      address: cell('to'),
      chain: cell('chain').toUpperCase(),
      ...(cell('memo') !== '' ? { memo: cell('memo') } : {}),
    };
  }

  let input: BatchRowInput | undefined;
  if (errors.length === 0 && type !== undefined && amount.ok && candidate !== undefined) {
    const parsed = BatchRowInput.safeParse({
      type,
      currency,
      amount: amount.value,
      ...(reference !== '' ? { reference } : {}),
      ...(candidate as object),
    });
    if (parsed.success) input = parsed.data;
    else errors.push(issueText(parsed.error));
  }
  return { row, raw, ...(input ? { input } : {}), errors, warnings };
};

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/**
 * Text of a batch file (already decoded) into rows. The header is optional when the columns are in
 * the documented order (pasted rows); a BOM is dropped; comma, semicolon and tab are recognised.
 */
export const parseBatchText = (input: string): ParsedBatch => {
  const fileProblems: BatchProblem[] = [];
  if (utf8Bytes(input) > BATCH_MAX_BYTES) return { rows: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
  const text = input.replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD') || text.includes('\u0000')) {
    return {
      rows: [],
      fileProblems: [
        {
          message:
            'This file is not UTF-8 text (it holds characters that could not be read). Save it as “CSV UTF-8” and import it again.',
        },
      ],
    };
  }
  if (text.trim() === '') return { rows: [], fileProblems: [{ message: 'The file is empty.' }] };

  const result = Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: 'greedy',
  });
  const lines = result.data;
  if (lines.length === 0) return { rows: [], fileProblems: [{ message: 'The file is empty.' }] };
  for (const error of result.errors) {
    if (error.code === 'MissingQuotes' || error.code === 'InvalidQuotes') {
      fileProblems.push({
        ...(error.row !== undefined ? { row: error.row + 1 } : {}),
        message: 'A quote is not closed: every field that starts with " must end with ".',
      });
    }
  }

  const first = (lines[0] ?? []).map((c) =>
    c
      .trim()
      .toLowerCase()
      .replace(/^\uFEFF/, ''),
  );
  const looksLikeHeader = first.some((c) => (BATCH_COLUMNS as readonly string[]).includes(c));
  let columns: string[];
  let dataStart: number;
  if (looksLikeHeader) {
    columns = first;
    dataStart = 1;
    const unknown = columns.filter((c) => c !== '' && !(BATCH_COLUMNS as readonly string[]).includes(c));
    if (unknown.length > 0) {
      fileProblems.push({
        row: 1,
        message: `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `“${c}”`).join(', ')}: the columns are ${BATCH_COLUMNS.join(', ')}.`,
      });
    }
    const seen = new Set<string>();
    for (const c of columns) {
      if (c !== '' && seen.has(c)) fileProblems.push({ row: 1, message: `The column “${c}” appears twice.` });
      seen.add(c);
    }
    const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
    if (missing.length > 0) {
      fileProblems.push({ row: 1, message: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.` });
    }
  } else if (TYPES[first[0] ?? ''] !== undefined) {
    // Rows pasted without their header: the documented order.
    columns = [...BATCH_COLUMNS];
    dataStart = 0;
  } else {
    return {
      rows: [],
      fileProblems: [
        { row: 1, message: `The first row is not a header: start the file with ${BATCH_COLUMNS.join(',')}.` },
      ],
    };
  }
  const dataCount = lines.length - dataStart;
  if (dataCount > BATCH_MAX_ROWS) return { rows: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
  if (dataCount === 0) fileProblems.push({ message: 'The file has a header but no rows.' });
  if (fileProblems.length > 0) return { rows: [], fileProblems };

  const rows: ParsedRow[] = [];
  for (let i = dataStart; i < lines.length; i++) {
    const cells = lines[i] ?? [];
    const row = i + 1;
    const raw: Record<string, string> = {};
    columns.forEach((name, index) => {
      if (name !== '') raw[name] = cells[index] ?? '';
    });
    const parsed = readRow(row, raw);
    if (cells.length > columns.length && cells.slice(columns.length).some((c) => c.trim() !== '')) {
      const { input: _dropped, ...rest } = parsed;
      rest.errors.unshift(
        `This row has ${cells.length} fields and the header ${columns.length}: a comma inside an amount or a reference needs quotes ("1,000").`,
      );
      rows.push(rest);
      continue;
    }
    rows.push(parsed);
  }
  return { rows, fileProblems };
};
