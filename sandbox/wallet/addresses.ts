/**
 * Deposit addresses. Every user gets one address per (currency, chain), derived from the seed, the
 * user id and the chain, created with the user so that a withdrawal to another sandbox user's address
 * can be recognised (and credited to them, fee-free). Memo chains share one platform address and tell
 * users apart by memo/tag, as real exchanges do.
 */

import { type ChainDef, CURRENCIES } from '../catalog';
import type { SandboxContext } from '../context';

const BASE32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function encode(hex: string, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i += 2) {
    const byte = Number.parseInt(hex.slice(i % hex.length, (i % hex.length) + 2), 16);
    out += alphabet[(byte + i) % alphabet.length];
  }
  return out;
}

export function addressFor(ctx: SandboxContext, userId: number, chain: ChainDef): { address: string; memo: string } {
  const digest =
    ctx.ids.digest(`deposit:${userId}:${chain.chain}`) + ctx.ids.digest(`deposit2:${userId}:${chain.chain}`);
  switch (chain.addressStyle) {
    case 'btc':
      return {
        address: chain.chain === 'BTC' ? `bc1q${encode(digest, BASE32, 38)}` : `D${encode(digest, BASE58, 33)}`,
        memo: '',
      };
    case 'evm':
      return { address: `0x${digest.slice(0, 40)}`, memo: '' };
    case 'tron':
      return { address: `T${encode(digest, BASE58, 33)}`, memo: '' };
    case 'memo': {
      const hot = ctx.ids.digest(`hot-wallet:${chain.chain}`);
      const address = chain.chain === 'XRP' ? `r${encode(hot, BASE58, 33)}` : `UQ${encode(hot, BASE58, 46)}`;
      return { address, memo: String(100_000_000 + userId) };
    }
  }
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
