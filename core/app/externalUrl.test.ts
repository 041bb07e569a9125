import { describe, expect, it, vi } from 'vitest';
import { OpenExternalInput } from '../../shared/contract/app';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import { checkExternalUrl } from './externalUrl';
import { createAppHandlers } from './handlers';

const ctx = { shell: 'chromium', audit: { record: vi.fn() } } as unknown as ServiceContext;
const call = { operation: 'app.openExternal' };

const REFUSED = [
  'http://etherscan.io/tx/0x1', // not https
  'https://evil.example/tx/0x1', // not an explorer
  'https://etherscan.io.evil.example/tx/0x1', // a look-alike host
  'https://evil.example/#https://etherscan.io/', // the explorer only in the fragment
  'https://user:pw@etherscan.io/tx/0x1', // credentials
  'https://etherscan.io:444/tx/0x1', // another port
  'https://etherscan.io\\@evil.example/', // a backslash parsed differently by browsers
  'javascript:alert(1)',
  'file:///etc/passwd',
  'ftp://etherscan.io/',
  'data:text/html,hi',
  '//etherscan.io/tx/0x1',
  'etherscan.io/tx/0x1',
  '',
];

describe('app.openExternal: only https links to the block explorers', () => {
  it('the contract refuses other hosts, http and odd URLs (the dispatcher parses every input in main)', () => {
    expect(OpenExternalInput.safeParse({ url: 'https://etherscan.io/tx/0x1' }).success).toBe(true);
    expect(OpenExternalInput.safeParse({ url: 'https://tronscan.org/#/transaction/ab' }).success).toBe(true);
    for (const url of REFUSED) expect(OpenExternalInput.safeParse({ url }).success, url).toBe(false);
    expect(OpenExternalInput.safeParse({ url: 'https://etherscan.io/', extra: 1 }).success).toBe(false);
  });

  it('the handler refuses them too, without asking the shell', async () => {
    const openExternal = vi.fn(async () => true);
    const app = createAppHandlers(ctx, { openExternal });
    for (const url of REFUSED) {
      await expect(app.openExternal({ url }, call), url).rejects.toBeInstanceOf(DeskFailure);
      expect(() => checkExternalUrl(url), url).toThrow(DeskFailure);
    }
    await expect(app.openExternal({ url: 'http://etherscan.io/tx/1' }, call)).rejects.toMatchObject({
      detail: { code: 'INVALID_INPUT', fields: { url: expect.stringMatching(/https/) } },
    });
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('opens an explorer link through the shell and says whether it did', async () => {
    const openExternal = vi.fn(async () => true);
    const app = createAppHandlers(ctx, { openExternal });
    expect(await app.openExternal({ url: 'https://mempool.space/tx/beef' }, call)).toEqual({ opened: true });
    expect(openExternal).toHaveBeenCalledWith('https://mempool.space/tx/beef');

    // Headless, or the system refused: not opened (the renderer copies the link and says so).
    const headless = createAppHandlers(ctx, { openExternal: async () => false });
    expect(await headless.openExternal({ url: 'https://mempool.space/tx/beef' }, call)).toMatchObject({
      opened: false,
    });
    const failing = createAppHandlers(ctx, { openExternal: async () => Promise.reject(new Error('no browser')) });
    expect(await failing.openExternal({ url: 'https://mempool.space/tx/beef' }, call)).toMatchObject({
      opened: false,
    });
    const none = createAppHandlers(ctx, {});
    expect(await none.openExternal({ url: 'https://mempool.space/tx/beef' }, call)).toMatchObject({ opened: false });
  });
});
