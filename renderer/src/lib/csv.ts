/**
 * CSV export as RFC 4180 (CRLF line ends, fields quoted when they contain a comma, quote, CR or LF;
 * quotes doubled), UTF-8 with a byte-order mark so spreadsheet apps read non-ASCII correctly.
 * Times are written as ISO 8601 with the offset of the stated time zone, and the zone is named in
 * the header, so an export never leaves the reader guessing (users.md §3.8).
 *
 * Every export in the app saves through `downloadCsv`, i.e. main's `app.saveFile`: Electron asks
 * where with its save dialog, the Chromium shell writes into the Downloads folder. (A blob
 * download would not work: both shells refuse downloads.)
 */
import { call, isDeskCallError } from './desk';
import { type DisplayTimeZone, formatTime, zoneLabel } from './format';
import { notify } from './notify';

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

/**
 * Saves the CSV text as a file through main and says where ("Saved to …"). Never throws: a
 * failure shows as a notice that stays. Resolves with the path, or undefined when the person
 * cancelled the save dialog or it failed. A BOM is added (once, whether or not `csv` has one).
 */
export const downloadCsv = async (fileName: string, csv: string): Promise<string | undefined> => {
  try {
    const saved = await call(
      'app.saveFile',
      { suggestedName: fileName, content: `${BOM}${csv.replace(/^\uFEFF/, '')}`, mimeType: 'text/csv' },
      { action: true },
    );
    if (!('path' in saved)) return undefined;
    notify({ tone: 'good', title: 'Export saved', message: `Saved to ${saved.path}` });
    return saved.path;
  } catch (error) {
    const message = isDeskCallError(error)
      ? [error.message, error.advice].filter(Boolean).join(' ')
      : 'The file could not be saved.';
    notify({ tone: 'bad', title: 'Export not saved', message, sticky: true });
    return undefined;
  }
};
