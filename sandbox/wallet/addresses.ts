/**
 * Deposit addresses. Every user gets one address per (currency, chain), derived from the seed, the
 * user id and the chain, created with the user so that a withdrawal to another sandbox user's address
 * can be recognised (and credited to them, fee-free). Memo chains share one platform address and tell
 * users apart by memo/tag, as real exchanges do.
 */

import { createHash } from 'node:crypto';
import { type AddressStyle, type ChainDef, CURRENCIES, chainStyle } from '../catalog';
import type { SandboxContext } from '../context';

const BASE58_BITCOIN = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_RIPPLE = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

export function base58(bytes: Uint8Array, alphabet = BASE58_BITCOIN): string {
  let n = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  // Each leading zero byte is written as the alphabet's first character.
  for (let i = 0; i < bytes.length && bytes[i] === 0; i += 1) out = alphabet[0] + out;
  return out;
}

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

/** Base58 with the 4-byte double-SHA-256 checksum (Bitcoin, Dogecoin, Tron, XRP). */
export function base58check(version: number, payload: Uint8Array, alphabet = BASE58_BITCOIN): string {
  const body = Buffer.concat([Buffer.from([version]), payload]);
  return base58(Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]), alphabet);
}

function bech32Polymod(values: readonly number[]): number {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) chk ^= BECH32_GENERATOR[i]!;
  }
  return chk;
}

/** A segwit version 0 address (BIP-173 bech32), e.g. `bc1q…` for a 20-byte key hash. */
export function segwitV0(hrp: string, program: Uint8Array): string {
  const data = [0];
  let acc = 0;
  let bits = 0;
  for (const byte of program) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const codes = [...hrp].map((c) => c.charCodeAt(0));
  const expandedHrp = [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
  const mod = bech32Polymod([...expandedHrp, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join('')}`;
}

function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** TON user-friendly form of a workchain-0 address: `UQ…` (non-bounceable) or `EQ…` (bounceable). */
export function tonUserFriendly(hash: Uint8Array, bounceable: boolean): string {
  const body = Buffer.concat([Buffer.from([bounceable ? 0x11 : 0x51, 0x00]), hash]);
  const crc = crc16Xmodem(body);
  return Buffer.concat([body, Buffer.from([crc >> 8, crc & 0xff])]).toString('base64url');
}

/**
 * An address of a chain's style from 32 seed-derived bytes: the chain's real encoding and checksum,
 * so it looks (and parses) like one, though no key exists for it.
 */
export function formatAddress(style: AddressStyle, seed: Uint8Array): string {
  const hash20 = seed.subarray(0, 20);
  switch (style) {
    case 'btc':
      return segwitV0('bc', hash20);
    case 'doge':
      return base58check(0x1e, hash20);
    case 'evm':
      return `0x${Buffer.from(hash20).toString('hex')}`;
    case 'tron':
      return base58check(0x41, hash20);
    case 'solana':
      return base58(seed.subarray(0, 32));
    case 'ton':
      return tonUserFriendly(seed.subarray(0, 32), false);
    case 'xrp':
      return base58check(0x00, hash20, BASE58_RIPPLE);
  }
}

/**
 * A transaction id as the chain's explorers write it, from 64 seed-derived bytes: Bitcoin, Dogecoin
 * and Tron 64 lower-case hex without `0x`; EVM chains `0x` + 64 hex; TON 64 hex (tonviewer's form);
 * XRP 64 upper-case hex (the ledger's own form); Solana a base58 signature of 64 bytes (87–88 chars).
 */
export function formatTxid(style: AddressStyle, hash: Uint8Array): string {
  const hex = Buffer.from(hash.subarray(0, 32)).toString('hex');
  switch (style) {
    case 'evm':
      return `0x${hex}`;
    case 'xrp':
      return hex.toUpperCase();
    case 'solana':
      return base58(hash.subarray(0, 64));
    case 'btc':
    case 'doge':
    case 'tron':
    case 'ton':
      return hex;
  }
}

/** A deterministic transaction id (under the data directory's seed) on `chain`, named by `label`. */
export function txidOf(ctx: SandboxContext, chain: string, label: string): string {
  const hash = Buffer.from(ctx.ids.digest(`txid:${label}`) + ctx.ids.digest(`txid2:${label}`), 'hex');
  return formatTxid(chainStyle(chain) ?? 'evm', hash);
}

/** A deterministic address (under the data directory's seed) of a chain, named by `label`. */
export function addressOf(ctx: SandboxContext, chain: ChainDef, label: string): string {
  return formatAddress(chain.addressStyle, Buffer.from(ctx.ids.digest(label), 'hex'));
}

export function addressFor(ctx: SandboxContext, userId: number, chain: ChainDef): { address: string; memo: string } {
  // Memo/tag chains: one platform (hot wallet) address, users told apart by memo.
  if (chain.tag)
    return { address: addressOf(ctx, chain, `hot-wallet:${chain.chain}`), memo: String(100_000_000 + userId) };
  return { address: addressOf(ctx, chain, `deposit:${userId}:${chain.chain}`), memo: '' };
}

/** Creates every deposit address of a user (idempotent). Call inside a transaction. */
export function ensureDepositAddresses(ctx: SandboxContext, userId: number): void {
  const insert = ctx.db.prepare(
    'INSERT OR IGNORE INTO deposit_addresses (user_id, currency, chain, address, memo) VALUES (?, ?, ?, ?, ?)',
  );
  for (const currency of CURRENCIES) {
    for (const chain of currency.chains) {
      const { address, memo } = addressFor(ctx, userId, chain);
      insert.run(userId, currency.currency, chain.chain, address, memo);
    }
  }
}

export function depositAddressOf(
  ctx: SandboxContext,
  userId: number,
  currency: string,
  chain: string,
): { address: string; memo: string } | undefined {
  return ctx.db
    .prepare('SELECT address, memo FROM deposit_addresses WHERE user_id = ? AND currency = ? AND chain = ?')
    .get(userId, currency, chain) as { address: string; memo: string } | undefined;
}

/** The sandbox user owning a deposit address on a chain (memo chains need the memo too). */
export function ownerOfAddress(
  ctx: SandboxContext,
  chain: ChainDef,
  address: string,
  memo: string,
): number | undefined {
  const row = (
    chain.tag
      ? ctx.db
          .prepare('SELECT user_id FROM deposit_addresses WHERE chain = ? AND address = ? AND memo = ? LIMIT 1')
          .get(chain.chain, address, memo)
      : ctx.db
          .prepare('SELECT user_id FROM deposit_addresses WHERE chain = ? AND address = ? LIMIT 1')
          .get(chain.chain, address)
  ) as { user_id: number } | undefined;
  return row?.user_id;
}
