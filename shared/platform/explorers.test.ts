import { describe, expect, it } from 'vitest';
import { EXPLORER_HOSTS, EXPLORERS, explorerUrl, externalUrlProblem } from './explorers';

describe('block explorers', () => {
  it('links an address and a transaction on each documented chain', () => {
    expect(explorerUrl('ETH', 'tx', '0xabc123')).toBe('https://etherscan.io/tx/0xabc123');
    expect(explorerUrl('ETH', 'address', '0xdef')).toBe('https://etherscan.io/address/0xdef');
    expect(explorerUrl('TRX', 'tx', 'f00d')).toBe('https://tronscan.org/#/transaction/f00d');
    expect(explorerUrl('TRX', 'address', 'TXYZ')).toBe('https://tronscan.org/#/address/TXYZ');
    expect(explorerUrl('BTC', 'tx', 'beef')).toBe('https://mempool.space/tx/beef');
    expect(explorerUrl('SOL', 'address', 'So1abc')).toBe('https://solscan.io/account/So1abc');
    expect(explorerUrl('TON', 'address', 'UQabc-_')).toBe('https://tonviewer.com/UQabc-_');
    expect(explorerUrl('XRP', 'tx', 'ABCDEF')).toBe('https://xrpscan.com/tx/ABCDEF');
    expect(explorerUrl('BSC', 'tx', '0x1')).toBe('https://bscscan.com/tx/0x1');
    expect(explorerUrl('DOGE', 'tx', 'aa')).toBe('https://blockchair.com/dogecoin/transaction/aa');
  });

  it('gives no link for an unknown chain or an id that is not one', () => {
    expect(explorerUrl('NOPE', 'tx', 'abc')).toBeUndefined();
    expect(explorerUrl(undefined, 'tx', 'abc')).toBeUndefined();
    expect(explorerUrl('ETH', 'tx', '')).toBeUndefined();
    expect(explorerUrl('ETH', 'tx', 'ab cd')).toBeUndefined();
    expect(explorerUrl('ETH', 'tx', '../../evil')).toBeUndefined();
    expect(explorerUrl('ETH', 'tx', 'a/b')).toBeUndefined();
  });

  it('every link it makes is one main accepts', () => {
    for (const chain of Object.keys(EXPLORERS)) {
      for (const target of ['address', 'tx'] as const) {
        const url = explorerUrl(chain, target, 'Abc123');
        expect(url).toBeDefined();
        expect(externalUrlProblem(url!), `${chain} ${target}`).toBeUndefined();
      }
    }
  });

  it('accepts only https on an explorer host, exactly', () => {
    expect(EXPLORER_HOSTS.has('etherscan.io')).toBe(true);
    expect(externalUrlProblem('https://etherscan.io/tx/0x1')).toBeUndefined();
    expect(externalUrlProblem('http://etherscan.io/tx/0x1')).toMatch(/https/);
    expect(externalUrlProblem('https://evil.example/tx/0x1')).toMatch(/explorers/);
    expect(externalUrlProblem('https://etherscan.io.evil.example/tx')).toMatch(/explorers/);
    expect(externalUrlProblem('https://evil.example/?https://etherscan.io/')).toMatch(/explorers/);
    expect(externalUrlProblem('https://user@etherscan.io/')).toMatch(/explorers/);
    expect(externalUrlProblem('https://etherscan.io:8443/')).toMatch(/explorers/);
    expect(externalUrlProblem('javascript:alert(1)')).toBeDefined();
    expect(externalUrlProblem('file:///etc/passwd')).toBeDefined();
    expect(externalUrlProblem('https://etherscan.io\\@evil.example/')).toBeDefined();
    expect(externalUrlProblem('https://etherscan.io/ x')).toBeDefined();
    expect(externalUrlProblem(`https://etherscan.io/${'a'.repeat(600)}`)).toMatch(/too long/);
  });
});
