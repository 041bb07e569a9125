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
import { CSV_BOM } from '../../../shared/format/csv';
import { call, isDeskCallError } from './desk';
import { notify } from './notify';

export { csvField, toCsv } from '../../../shared/format/csv';
export { isoInZone, timeHeader } from '../../../shared/format/time';

/**
 * Saves the CSV text as a file through main and says where ("Saved to …"). Never throws: a
 * failure shows as a notice that stays. Resolves with the path, or undefined when the person
 * cancelled the save dialog or it failed. A BOM is added (once, whether or not `csv` has one).
 */
export const downloadCsv = async (fileName: string, csv: string): Promise<string | undefined> => {
  try {
    const saved = await call(
      'app.saveFile',
      { suggestedName: fileName, content: `${CSV_BOM}${csv.replace(/^\uFEFF/, '')}`, mimeType: 'text/csv' },
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
