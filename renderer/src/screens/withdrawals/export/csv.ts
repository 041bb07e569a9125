/** The CSV helpers live in lib/csv.ts (shared by every export); kept here so existing imports work. */
export { csvField, downloadCsv, isoInZone, timeHeader, toCsv } from '../../../lib/csv';
