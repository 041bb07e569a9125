/**
 * How a cached history record reads, on the History screen and in its CSV export (written by main):
 * one description, so the file a person hands to accounting says what the screen said.
 */
import type { HistoryKind } from '../contract/activity';
import { type FundingRecordKind, statusTimeline } from '../platform/timelines';
import { type DisplayTimeZone, isoInZone, timeHeader } from './time';

export const HISTORY_KIND_WORD: Record<HistoryKind, string> = {
  deposits: 'Deposit',
  withdrawals: 'Withdrawal',
  subAccountTransfers: 'Sub-account transfer',
  pushes: 'UID transfer',
  trades: 'Trade',
};

/** A field of the platform's record as text ('' when it is absent or not a string or number). */
export const recordText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** History kinds whose records have a status timeline. */
const RECORD_KIND: Partial<Record<HistoryKind, FundingRecordKind>> = {
  deposits: 'deposit',
  withdrawals: 'withdrawal',
  pushes: 'push',
};

/** A cached record's status in the timelines' plain words (code in brackets), as the live screens say it. */
export const historyStatusWords = (kind: HistoryKind, data: Record<string, unknown>): string => {
  const status = recordText(data.status);
  if (kind === 'trades') return recordText(data.side) || '—';
  if (status === '') return '—';
  const record = RECORD_KIND[kind];
  return record ? `${statusTimeline(record, status).headline} (${status})` : status;
};

/** The currency (or, for a trade, the pair) of a cached record. */
export const historyCurrency = (data: Record<string, unknown>): string =>
  recordText(data.currency) || recordText(data.currency_pair);

export const historyCsvHeader = (zone: DisplayTimeZone): string[] => [
  timeHeader('Time', zone),
  'Kind',
  'ID',
  'Currency',
  'Amount',
  'Status',
];

export const historyCsvFields = (
  record: { kind: HistoryKind; id: string; time: number; data: Record<string, unknown> },
  zone: DisplayTimeZone,
): string[] => [
  isoInZone(record.time * 1000, zone),
  HISTORY_KIND_WORD[record.kind],
  record.id,
  historyCurrency(record.data),
  recordText(record.data.amount),
  historyStatusWords(record.kind, record.data),
];
