/**
 * Reading a batch file in the renderer before anything is sent to main: the size limit, then the
 * encoding — a UTF-16 file (its byte-order mark, or the NUL bytes every other byte of UTF-16 text
 * has) and bytes that are not valid UTF-8 are refused with one clear message instead of being read
 * as garbled text. A UTF-8 BOM is dropped. docs/bulk.md, "The file".
 */
import { BATCH_MAX_BYTES, BATCH_TOO_LARGE_MESSAGE } from '../../../../shared/contract/bulk';

export type ReadBatchFile =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

const UTF16_MESSAGE =
  'This file is saved as UTF-16 (“Unicode text”). Save it as “CSV UTF-8” (comma-separated) and import it again.';
const NOT_UTF8_MESSAGE =
  'This file is not UTF-8 text (perhaps Windows-1252 or another older encoding). Save it as “CSV UTF-8” and import it again.';

export const decodeBatchBytes = (bytes: Uint8Array): ReadBatchFile => {
  if (bytes.length > BATCH_MAX_BYTES) return { ok: false, message: BATCH_TOO_LARGE_MESSAGE };
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { ok: false, message: UTF16_MESSAGE };
  }
  // UTF-16 without a BOM: many NUL bytes (CSV text never holds one).
  const sample = bytes.subarray(0, 4096);
  let nul = 0;
  for (const b of sample) if (b === 0) nul++;
  if (nul > 0 && nul >= sample.length / 8) return { ok: false, message: UTF16_MESSAGE };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { ok: true, text: text.replace(/^\uFEFF/, '') };
  } catch {
    return { ok: false, message: NOT_UTF8_MESSAGE };
  }
};

/** Refuses a file above the limit before reading a byte of it (a 50 MB file is never loaded). */
export const readBatchFile = async (file: Blob): Promise<ReadBatchFile> => {
  if (file.size > BATCH_MAX_BYTES) return { ok: false, message: BATCH_TOO_LARGE_MESSAGE };
  return decodeBatchBytes(new Uint8Array(await file.arrayBuffer()));
};
