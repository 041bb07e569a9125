import { describe, expect, it } from 'vitest';
import { BATCH_TOO_LARGE_MESSAGE } from '../../../../shared/contract/bulk';
import { decodeBatchBytes, readBatchFile } from './readFile';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('readBatchFile', () => {
  it('reads UTF-8 and drops its BOM', () => {
    expect(decodeBatchBytes(utf8('\uFEFFtype,currency\n'))).toEqual({ ok: true, text: 'type,currency\n' });
  });
  it('refuses UTF-16 with or without a BOM, and bytes that are not UTF-8', () => {
    const le = new Uint8Array([0xff, 0xfe, 0x74, 0x00, 0x79, 0x00]);
    expect(decodeBatchBytes(le)).toMatchObject({ ok: false, message: expect.stringMatching(/UTF-16/) });
    const noBom = new Uint8Array([0x74, 0x00, 0x79, 0x00, 0x70, 0x00, 0x65, 0x00]);
    expect(decodeBatchBytes(noBom)).toMatchObject({ ok: false, message: expect.stringMatching(/UTF-16/) });
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Windows-1252
    expect(decodeBatchBytes(latin1)).toMatchObject({ ok: false, message: expect.stringMatching(/not UTF-8/) });
  });
  it('refuses a 50 MB file by its size, without reading it', async () => {
    const big = {
      size: 50 * 1024 * 1024,
      arrayBuffer: () => Promise.reject(new Error('must not be read')),
    } as unknown as Blob;
    expect(await readBatchFile(big)).toEqual({ ok: false, message: BATCH_TOO_LARGE_MESSAGE });
  });
});
