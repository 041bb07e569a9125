/**
 * Seed data of a new data directory: a main account with a full read-write key and balances in
 * several currencies and chains (BTC, ETH, USDT on ERC20/TRC20/TON-with-memo, GT, XRP with tag, a few
 * small balances), margin/futures/delivery/options/cross-margin funds, two sub-accounts, saved
 * addresses, a counterparty main account (for UID pushes and internal withdrawals) and a little
 * history. Runs once: later starts find the meta row and reuse the same account and key.
 */

import { chainDef, currencyDef } from './catalog';
import type { SandboxContext } from './context';
import { getMeta, setMeta } from './store/db';
import type { AccountType } from './store/ledger';
import { FULL_PERMS } from './store/users';
import { addressFor, addressOf, ensureDepositAddresses, txidOf } from './wallet/addresses';

export interface SeededAccount {
  readonly userId: number;
  readonly key: string;
  readonly secret: string;
}

const DAY = 86_400_000;

export function seedIfEmpty(ctx: SandboxContext): SeededAccount {
  const { db, users, ledger } = ctx;
  const existing = getMeta(db, 'seed_key');
  if (existing) {
    const key = users.key(existing);
    if (key) return { userId: key.userId, key: key.key, secret: key.secret };
  }
  return ctx.tx(() => {
    const now = ctx.clock.now();
    const credit = (userId: number, account: AccountType, currency: string, amount: string, pair?: string) =>
      ledger.credit({ userId, account, currency, ...(pair ? { pair } : {}) }, amount, 'seed');

    const main = users.createUser({
      parentId: null,
      loginName: 'desk_main',
      remark: 'Treasury desk',
      email: 'treasury@sandbox.local',
    });
    const key = users.createKey(main.id, { name: 'sandbox-full', perms: FULL_PERMS, ipWhitelist: [] });
    ensureDepositAddresses(ctx, main.id);

    for (const [currency, amount] of [
      ['BTC', '2.5'],
      ['ETH', '40'],
      ['USDT', '250000'],
      ['GT', '1200'],
      ['XRP', '5000'],
      ['DOGE', '20000'],
      // small balances (worth a few USDT): convertible to GT
      ['SHIB', '150000'],
      ['PEPE', '300000'],
      ['DUST', '2000000'],
    ] as const) {
      credit(main.id, 'spot', currency, amount);
    }
    credit(main.id, 'margin', 'BTC', '0.1', 'BTC_USDT');
    credit(main.id, 'margin', 'USDT', '5000', 'BTC_USDT');
    credit(main.id, 'futures', 'USDT', '20000');
    credit(main.id, 'futures', 'BTC', '0.05');
    credit(main.id, 'delivery', 'USDT', '1000');
    credit(main.id, 'options', 'USDT', '500');
    credit(main.id, 'cross_margin', 'USDT', '1000');

    const trading = users.createUser({
      parentId: main.id,
      loginName: 'desk_trading',
      remark: 'Trading desk',
      email: main.email,
    });
    const ops = users.createUser({ parentId: main.id, loginName: 'desk_ops', remark: 'Operations', email: main.email });
    for (const sub of [trading, ops]) ensureDepositAddresses(ctx, sub.id);
    credit(trading.id, 'spot', 'USDT', '10000');
    credit(trading.id, 'spot', 'BTC', '0.2');
    credit(trading.id, 'futures', 'USDT', '2500');
    credit(trading.id, 'margin', 'USDT', '300', 'ETH_USDT');
    credit(ops.id, 'spot', 'USDT', '2000');
    credit(ops.id, 'spot', 'ETH', '1.5');

    const counterparty = users.createUser({
      parentId: null,
      loginName: 'desk_counterparty',
      remark: 'Counterparty (another main account)',
      email: 'counterparty@sandbox.local',
    });
    ensureDepositAddresses(ctx, counterparty.id);
    credit(counterparty.id, 'spot', 'USDT', '50000');
    credit(counterparty.id, 'spot', 'BTC', '1');

    // Saved addresses: external ones (verified), the counterparty's deposit addresses (fee-free
    // internal withdrawals), test addresses of the failure paths, and one unverified address.
    const save = db.prepare(
      'INSERT INTO saved_addresses (user_id, currency, chain, address, name, tag, verified) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const chainOf = (currency: string, chain: string) => chainDef(currencyDef(currency)!, chain)!;
    const ext = (currency: string, chain: string, label: string) => addressOf(ctx, chainOf(currency, chain), label);
    const otcTrc20 = ext('USDT', 'TRX', 'ext-usdt-trx');
    save.run(main.id, 'BTC', 'BTC', ext('BTC', 'BTC', 'ext-btc'), 'Cold storage', '', '1');
    save.run(main.id, 'ETH', 'ETH', ext('ETH', 'ETH', 'ext-eth'), 'Ledger wallet', '', '1');
    save.run(main.id, 'USDT', 'ETH', ext('USDT', 'ETH', 'ext-usdt-eth'), 'OTC desk (ERC20)', '', '1');
    save.run(main.id, 'USDT', 'TRX', otcTrc20, 'OTC desk (TRC20)', '', '1');
    save.run(main.id, 'USDT', 'TON', ext('USDT', 'TON', 'ext-usdt-ton'), 'Exchange B (TON)', '7734001', '1');
    save.run(main.id, 'XRP', 'XRP', ext('XRP', 'XRP', 'ext-xrp'), 'Exchange C', '990011', '1');
    save.run(main.id, 'USDT', 'TRX', ext('USDT', 'TRX', 'ext-usdt-trx-new'), 'New supplier (unverified)', '', '0');
    // The failure paths are chosen by the address's ending (see the pipelines), so these keep a
    // Tron address's shape and length but end in a readable word.
    const failPath = (label: string, suffix: string) => ext('USDT', 'TRX', label).slice(0, 34 - suffix.length) + suffix;
    save.run(main.id, 'USDT', 'TRX', failPath('ext-fail', 'FAIL'), 'Test: fails on chain', '', '1');
    save.run(main.id, 'USDT', 'TRX', failPath('ext-reject', 'REJECT'), 'Test: rejected by review', '', '1');
    const cp = addressFor(ctx, counterparty.id, chainOf('USDT', 'TRX'));
    save.run(main.id, 'USDT', 'TRX', cp.address, 'Counterparty (internal)', '', '1');
    const cpBtc = addressFor(ctx, counterparty.id, chainOf('BTC', 'BTC'));
    save.run(main.id, 'BTC', 'BTC', cpBtc.address, 'Counterparty (internal)', '', '1');

    // A little settled history so lists are not empty on first start.
    const depositAddr = (currency: string, chain: string) =>
      db
        .prepare('SELECT address, memo FROM deposit_addresses WHERE user_id = ? AND currency = ? AND chain = ?')
        .get(main.id, currency, chain) as {
        address: string;
        memo: string;
      };
    const history = [
      { currency: 'USDT', chain: 'TRX', amount: '50000', at: now - 3 * DAY },
      { currency: 'BTC', chain: 'BTC', amount: '0.5', at: now - 2 * DAY },
      { currency: 'ETH', chain: 'ETH', amount: '10', at: now - DAY },
    ];
    history.forEach((h, i) => {
      const a = depositAddr(h.currency, h.chain);
      db.prepare(
        `INSERT INTO deposits (seq, id, user_id, currency, chain, address, memo, amount, txid, status, timestamp, route, credited)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'DONE', ?, 'chain', 1)`,
      ).run(
        i + 1,
        `d${30_000_001 + i}`,
        main.id,
        h.currency,
        h.chain,
        a.address,
        a.memo,
        h.amount,
        txidOf(ctx, h.chain, `seed-dep-${i}`),
        h.at,
      );
    });
    db.prepare(
      `INSERT INTO withdrawals (seq, id, user_id, currency, chain, address, amount, fee, status, txid, block_number, timestamp, timestamp2, route)
       VALUES (1, 'w20000001', ?, 'USDT', 'TRX', ?, '1200', '1', 'DONE', ?, '61234567', ?, ?, 'chain')`,
    ).run(main.id, otcTrc20, txidOf(ctx, 'TRX', 'seed-wd-1'), now - 2 * DAY, now - 2 * DAY + 60_000);

    setMeta(db, 'seed_key', key.key);
    return { userId: main.id, key: key.key, secret: key.secret };
  });
}
