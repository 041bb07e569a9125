/**
 * The one CSV writer of the app: every export, in the renderer and in main, writes its cells with
 * this (`csvField`, `csvLine`, `toCsv`).
 *
 * RFC 4180 (CRLF line ends, quotes doubled), with every field quoted, and made inert for
 * spreadsheets: a cell a spreadsheet would run as a formula (= + - @, tab or CR first) gets a
 * leading ', and so does every such character that follows a separator-like character (; , tab |).
 * Spreadsheets set to another separator (";" in much of Europe) split a quoted field there, so
 * `x;=cmd|'/C calc'!A0` would otherwise start a cell with "=cmd…" and run it. Only a plain number
 * such as -12.5 is left as it is (a negative amount stays a number).
 */

/** A plain decimal number ("-12.5", "42"): never a formula, kept as typed. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/**
 * Where a cell could start with a formula: before = + - @ tab or CR at the start of the field or
 * after a separator-like character (spaces between them count as nothing). A ' goes there.
 */
const FORMULA_START = /(?<=(?:^|[;,\t|]) *)(?=[=+\-@\t\r])/g;

/** The text of a cell as it is written, quotes included. */
export const csvField = (value: string): string => {
  const inert = PLAIN_NUMBER.test(value) ? value : value.replace(FORMULA_START, "'");
  return `"${inert.replace(/"/g, '""')}"`;
};

/** One CSV line (with its CRLF). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** Rows to RFC 4180 text (no BOM). */
export const toCsv = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [header, ...rows].map(csvLine).join('');

/** The byte-order mark that makes spreadsheet apps read UTF-8 correctly. */
export const CSV_BOM = '\uFEFF';

/**
 * RFC 4180 text to records (quoted fields unquoted, "" read as "), for the tests and the audit
 * export's checker. A BOM at the start is skipped; the last line's CRLF ends it.
 */
export const parseCsv = (text: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
};
