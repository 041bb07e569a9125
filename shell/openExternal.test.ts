import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createShellOpenExternal, openerFor } from './openExternal';

const fakeChild = (outcome: 'spawn' | 'error') => {
  const child = Object.assign(new EventEmitter(), { unref: vi.fn() });
  setTimeout(() => (outcome === 'spawn' ? child.emit('spawn') : child.emit('error', new Error('ENOENT'))), 0);
  return child;
};

describe('Chromium shell: explorer links', () => {
  it('headless: opens nothing, logs it and answers not opened', async () => {
    const spawn = vi.fn();
    const log = vi.fn();
    const open = createShellOpenExternal({ headless: true, log, spawn: spawn as never });
    expect(await open('https://etherscan.io/tx/0x1')).toBe(false);
    expect(spawn).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('https://etherscan.io/tx/0x1'));
  });

  it('with a display: the system opener, the URL as one argument, no shell', async () => {
    const spawn = vi.fn(() => fakeChild('spawn'));
    const open = createShellOpenExternal({ headless: false, log: () => {}, platform: 'linux', spawn: spawn as never });
    expect(await open('https://tronscan.org/#/transaction/ab')).toBe(true);
    expect(spawn).toHaveBeenCalledWith(
      'xdg-open',
      ['https://tronscan.org/#/transaction/ab'],
      expect.objectContaining({ shell: false, detached: true }),
    );
    expect(openerFor('darwin', 'https://x').command).toBe('open');
    expect(openerFor('win32', 'https://x').args.at(-1)).toBe('https://x');
  });

  it('no opener installed: answers not opened', async () => {
    const open = createShellOpenExternal({
      headless: false,
      log: () => {},
      platform: 'linux',
      spawn: (() => fakeChild('error')) as never,
    });
    expect(await open('https://etherscan.io/tx/0x1')).toBe(false);
  });

  it('refuses anything but an explorer link, before starting a program', async () => {
    const spawn = vi.fn(() => fakeChild('spawn'));
    const open = createShellOpenExternal({ headless: false, log: () => {}, spawn: spawn as never });
    await expect(open('https://evil.example/')).rejects.toThrow();
    await expect(open('http://etherscan.io/')).rejects.toThrow();
    expect(spawn).not.toHaveBeenCalled();
  });
});
