/**
 * CSV as RFC 4180: CRLF line ends, a field quoted when it contains a comma, quote, CR or LF, quotes
 * doubled. A cell that a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets
 * a leading ' — except a plain number such as -12.5. Every export of the app, in the renderer and
 * in main, writes its cells with this.
 */
export const csvField = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** One CSV line (with its CRLF). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** Rows to RFC 4180 text (no BOM). */
export const toCsv = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [header, ...rows].map(csvLine).join('');

/** The byte-order mark that makes spreadsheet apps read UTF-8 correctly. */
export const CSV_BOM = '\uFEFF';
