import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../catalog';
import type { SandboxHandle } from '../server';
import { api, control, mainCreds, startTestSandbox } from '../testing/harness';
import { base58, base58check, formatAddress, formatTxid, segwitV0, tonUserFriendly } from './addresses';

const hex = (h: string) => Buffer.from(h, 'hex');

describe('address encodings', () => {
  it('reproduce published addresses', () => {
    // BIP-173 test vector.
    expect(segwitV0('bc', hex('751e76e8199196d454941c45d1b3a323f1433bd6'))).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    // USDT's Tron contract (41a614… in hex), USDC's Solana mint, the XRP ledger's genesis account.
    expect(base58check(0x41, hex('a614f803b6fd780986a42c78ec9c7f77e6ded13c'))).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(base58(hex('c6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61'))).toBe(
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    );
    expect(
      base58check(
        0x00,
        hex('b5f762798a53d543a014caf8b297cff8f2f937e8'),
        'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz',
      ),
    ).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
    // USDT's TON jetton master: same flags, hash and CRC as published.
    const jetton = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
    expect(tonUserFriendly(Buffer.from(jetton, 'base64url').subarray(2, 34), true)).toBe(jetton);
  });

  it('give each style its shape', () => {
    const seed = hex('00'.repeat(32));
    expect(formatAddress('solana', seed)).toBe('1'.repeat(32));
    const random = hex('9f'.repeat(32));
    expect(formatAddress('ton', random)).toMatch(/^UQ[A-Za-z0-9_-]{46}$/);
    expect(formatAddress('tron', random)).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });
});

const SHAPES: Record<string, RegExp> = {
  btc: /^bc1q[02-9ac-hj-np-z]{38}$/,
  doge: /^D[1-9A-HJ-NP-Za-km-z]{33}$/,
  evm: /^0x[0-9a-f]{40}$/,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  ton: /^(UQ|EQ)[A-Za-z0-9_-]{46}$/,
  xrp: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
};

describe('seeded addresses', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 5 });
  });
  afterAll(() => sb.close());

  it('deposit addresses of every chain have that chain shape', async () => {
    for (const currency of CURRENCIES.filter((c) => !c.lowCap)) {
      const res = await api<{ multichain_addresses: { chain: string; address: string }[] }>(
        sb,
        mainCreds(sb),
        'GET',
        `/wallet/deposit_address?currency=${currency.currency}`,
      );
      for (const chain of currency.chains) {
        const address = res.body.multichain_addresses.find((a) => a.chain === chain.chain)?.address;
        expect(address, `${currency.currency} on ${chain.chain}`).toMatch(SHAPES[chain.addressStyle]!);
      }
    }
  });

  it('saved addresses have their chain shape (the failure-path ones keep the length)', async () => {
    const rows = sb.ctx.db.prepare('SELECT currency, chain, address, name FROM saved_addresses').all() as {
      currency: string;
      chain: string;
      address: string;
      name: string;
    }[];
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const style = CURRENCIES.find((c) => c.currency === row.currency)!.chains.find(
        (c) => c.chain === row.chain,
      )!.addressStyle;
      const address = row.name.startsWith('Test:')
        ? row.address.replace(/(FAIL|REJECT)$/, (s) => '1'.repeat(s.length))
        : row.address;
      expect(address, row.name).toMatch(SHAPES[style]!);
    }
  });
});

/** How each chain's explorers write a transaction id. */
const TXID_SHAPES: Record<string, RegExp> = {
  btc: /^[0-9a-f]{64}$/,
  doge: /^[0-9a-f]{64}$/,
  tron: /^[0-9a-f]{64}$/,
  ton: /^[0-9a-f]{64}$/,
  evm: /^0x[0-9a-f]{64}$/,
  xrp: /^[0-9A-F]{64}$/,
  solana: /^[1-9A-HJ-NP-Za-km-z]{86,88}$/,
};

describe('transaction ids in each chain own format', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: 12 });
  });
  afterAll(() => sb.close());

  it('deposits on every chain carry the txid their explorer shows (TRX and BTC without 0x)', async () => {
    const chains = CURRENCIES.filter((c) => !c.lowCap).flatMap((c) =>
      c.chains.filter((ch) => !ch.depositDisabled && !ch.disabled).map((ch) => ({ currency: c, chain: ch })),
    );
    for (const { currency, chain } of chains) {
      await control(sb, '/deposits', {
        user_id: sb.userId,
        currency: currency.currency,
        chain: chain.chain,
        amount: currency.minDeposit === '0' ? '1' : new Decimal(currency.minDeposit).times(2).toFixed(),
      });
    }
    const styles = new Set<string>();
    for (const { currency, chain } of chains) {
      const records = await api<{ chain: string; txid: string }[]>(
        sb,
        mainCreds(sb),
        'GET',
        `/wallet/deposits?currency=${currency.currency}`,
      );
      const record = records.body.find((r) => r.chain === chain.chain);
      expect(record?.txid, `${currency.currency} on ${chain.chain}`).toMatch(TXID_SHAPES[chain.addressStyle]!);
      styles.add(chain.addressStyle);
    }
    expect([...styles].sort()).toEqual(expect.arrayContaining(['btc', 'evm', 'tron', 'xrp']));
    // The seeded history too: its USDT deposit was on Tron.
    const seeded = await api<{ chain: string; txid: string }[]>(
      sb,
      mainCreds(sb),
      'GET',
      '/wallet/deposits?currency=USDT',
    );
    for (const r of seeded.body.filter((x) => x.chain === 'TRX')) expect(r.txid).toMatch(TXID_SHAPES.tron!);
  });

  it('the deposit address names the confirmations each chain needs (the count the spec has)', async () => {
    const res = await api<{ multichain_addresses: { chain: string; min_confirms: number }[] }>(
      sb,
      mainCreds(sb),
      'GET',
      '/wallet/deposit_address?currency=USDT',
    );
    for (const a of res.body.multichain_addresses) expect(a.min_confirms, a.chain).toBeGreaterThan(0);
  });

  it('formats 64 bytes per style', () => {
    const bytes = Buffer.alloc(64, 0xab);
    expect(formatTxid('tron', bytes)).toBe('ab'.repeat(32));
    expect(formatTxid('evm', bytes)).toBe(`0x${'ab'.repeat(32)}`);
    expect(formatTxid('xrp', bytes)).toBe('AB'.repeat(32));
    expect(formatTxid('solana', bytes)).toMatch(TXID_SHAPES.solana!);
  });
});
