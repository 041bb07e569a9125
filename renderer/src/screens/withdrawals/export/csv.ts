/**
 * CSV export as RFC 4180 (CRLF line ends, fields quoted when they contain a comma, quote, CR or LF;
 * quotes doubled), UTF-8 with a byte-order mark so spreadsheet apps read non-ASCII correctly.
 * Times are written as ISO 8601 with the offset of the stated time zone, and the zone is named in
 * the header, so an export never leaves the reader guessing (users.md §3.8).
 */
import { type DisplayTimeZone, formatTime, zoneLabel } from '../../../lib/format';

const NEEDS_QUOTES = /[",\r\n]/;

export const csvField = (value: string): string =>
  NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/** Rows to RFC 4180 text (no BOM). */
export const toCsv = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;

/** "2026-01-02T03:04:05+08:00" in the display zone. */
export const isoInZone = (epochMs: number, zone: DisplayTimeZone): string => {
  const [date, time] = formatTime(epochMs, zone).split(' ');
  const label = zoneLabel(zone, epochMs);
  const offset =
    label === 'UTC'
      ? 'Z'
      : label
          .replace('UTC', '')
          .replace(/^([+-])(\d)$/, '$10$2:00')
          .replace(/^([+-]\d\d)$/, '$1:00');
  return `${date}T${time}${offset}`;
};

/** Column title of a time column: states the zone ("Time (UTC+8)"). */
export const timeHeader = (title: string, zone: DisplayTimeZone): string => `${title} (${zoneLabel(zone)})`;

const BOM = '\uFEFF';

/** Offers the text as a file download (blob URL; the renderer has no network). */
export const downloadCsv = (fileName: string, csv: string): void => {
  const blob = new Blob([BOM, csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
