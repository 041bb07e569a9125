/**
 * The firm-wide view: the main account and every sub-account, each account type the platform
 * reports for it, every holding valued in one quote from the spot tickers. A source that cannot be
 * read is named on the accounts it concerns (never shown as zero), and a currency without a price is
 * listed as unpriced (never valued at zero).
 *
 * `readFirmSources` does the platform reads (14 requests, all at once); `buildFirmView` is pure.
 */
import Decimal from 'decimal.js';
import type { FirmAccount, FirmAccountType, FirmHolding, FirmQuote, FirmView } from '../../shared/contract/balances';
import type * as S from '../../shared/platform/api';
import { valuationIn } from '../../shared/platform/valuation';
import type { PlatformApi } from '../api/platform';
import { readAllPages } from '../subAccounts/pages';
import { describeFailure } from './failures';

type Settled<T> = PromiseSettledResult<T>;

/** Everything the view is built from, as the platform answered (or why it did not). */
export interface FirmSources {
  readonly mainUid: string;
  readonly tickers: Settled<
    readonly {
      currency_pair: string;
      last?: string | undefined;
      highest_bid?: string | undefined;
      lowest_ask?: string | undefined;
    }[]
  >;
  readonly spot: Settled<readonly S.SpotAccount[]>;
  readonly margin: Settled<readonly S.MarginAccount[]>;
  readonly crossMargin: Settled<S.CrossMarginAccount>;
  readonly futures: Settled<readonly S.FuturesAccount[]>;
  readonly delivery: Settled<readonly S.FuturesAccount[]>;
  readonly options: Settled<S.OptionsAccount>;
  readonly subs: Settled<readonly S.SubAccount[]>;
  readonly subSpot: Settled<readonly S.SubAccountBalance[]>;
  readonly subMargin: Settled<readonly S.SubAccountMarginBalance[]>;
  readonly subFutures: Settled<readonly S.SubAccountFuturesBalance[]>;
  readonly subCrossMargin: Settled<readonly S.SubAccountCrossMarginBalance[]>;
}

/** Perpetual and delivery settle currencies the app reads (the platform's: USDT and BTC; delivery USDT). */
const FUTURES_SETTLES = ['usdt', 'btc'] as const;
const DELIVERY_SETTLES = ['usdt'] as const;
const SUB_BALANCE_PAGE = 100;
/** Values keep this many decimals (the screens round further for display). */
const VALUE_DECIMALS = 8;

export const readFirmSources = async (api: PlatformApi, mainUid: string): Promise<FirmSources> => {
  // Every read at once; each settles on its own, so one failing source never hides the others.
  const settle = <T>(read: Promise<T>): Promise<Settled<T>> =>
    read.then(
      (value) => ({ status: 'fulfilled', value }),
      (reason: unknown) => ({ status: 'rejected', reason }),
    );
  const reads = {
    tickers: settle(api.spot.tickers()),
    spot: settle(api.spot.accounts()),
    margin: settle(api.accounts.margin()),
    crossMargin: settle(api.accounts.crossMargin()),
    futures: settle(Promise.all(FUTURES_SETTLES.map((settle) => api.accounts.futures(settle)))),
    delivery: settle(Promise.all(DELIVERY_SETTLES.map((settle) => api.accounts.delivery(settle)))),
    options: settle(api.accounts.options()),
    subs: settle(api.subAccounts.list({ type: '0' })),
    subSpot: settle(
      readAllPages({
        read: (page) => api.wallet.subAccountBalances({ page, limit: SUB_BALANCE_PAGE }),
        pageSize: SUB_BALANCE_PAGE,
        maxPages: 50,
      }),
    ),
    subMargin: settle(api.wallet.subAccountMarginBalances()),
    subFutures: settle(api.wallet.subAccountFuturesBalances()),
    subCrossMargin: settle(api.wallet.subAccountCrossMarginBalances()),
  };
  const entries = await Promise.all(Object.entries(reads).map(async ([name, read]) => [name, await read] as const));
  return { mainUid, ...(Object.fromEntries(entries) as Omit<FirmSources, 'mainUid'>) };
};

const dec = (v: string | undefined | null): Decimal => {
  if (v === undefined || v === null || v === '') return new Decimal(0);
  try {
    return new Decimal(v);
  } catch {
    return new Decimal(0);
  }
};

/** How every value was found (shared/platform/valuation.ts). */
const ROUTE =
  'by the last spot price of a direct pair, else through USDT; a pair without trades at the mid of its book.';
const BASIS: Record<FirmQuote, string> = {
  USDT: `Valued in USDT ${ROUTE}`,
  USD: `Valued in USD ${ROUTE} Taking 1 USDT = 1 USD.`,
  BTC: `Valued in BTC ${ROUTE}`,
};

interface Draft {
  uid: string;
  label: string;
  role: 'main' | 'sub';
  frozen?: boolean;
  holdings: Omit<FirmHolding, 'value'>[];
  errors: Record<string, string>;
}

const marginHoldings = (accounts: readonly S.MarginAccount[]): Omit<FirmHolding, 'value'>[] =>
  accounts.flatMap((m) =>
    [m.base, m.quote].flatMap((side) => {
      const borrowed = dec(side.borrowed).plus(dec(side.interest));
      const net = dec(side.available).plus(dec(side.locked)).minus(borrowed);
      if (net.isZero() && borrowed.isZero()) return [];
      return [
        {
          account: 'margin' as const,
          currency: side.currency,
          amount: net.toFixed(),
          note: borrowed.isZero()
            ? `${m.currency_pair} pair`
            : `${m.currency_pair} pair, borrowed ${borrowed.toFixed()}`,
        },
      ];
    }),
  );

const crossHoldings = (account: S.CrossMarginAccount): Omit<FirmHolding, 'value'>[] =>
  Object.entries(account.balances ?? {}).flatMap(([currency, b]) => {
    const borrowed = dec(b.borrowed).plus(dec(b.interest));
    const net = dec(b.available).plus(dec(b.freeze)).minus(borrowed);
    if (net.isZero() && borrowed.isZero()) return [];
    return [
      {
        account: 'crossMargin' as const,
        currency,
        amount: net.toFixed(),
        ...(borrowed.isZero() ? {} : { note: `borrowed ${borrowed.toFixed()}` }),
      },
    ];
  });

/** A futures-style account (perpetual, delivery, options): its equity, total + unrealised PnL. */
const contractHolding = (
  account: FirmAccountType,
  a: { total?: string | undefined; unrealised_pnl?: string | undefined; currency?: string | undefined },
  fallbackCurrency: string,
): Omit<FirmHolding, 'value'>[] => {
  const pnl = dec(a.unrealised_pnl);
  const equity = dec(a.total).plus(pnl);
  if (equity.isZero()) return [];
  const currency = (a.currency || fallbackCurrency).toUpperCase();
  return [
    {
      account,
      currency,
      amount: equity.toFixed(),
      ...(pnl.isZero() ? {} : { note: `incl. unrealised PnL ${pnl.toFixed()}` }),
    },
  ];
};

/** The view from what the platform answered; `quote` chooses the unit of every value. */
export const buildFirmView = (sources: FirmSources, quote: FirmQuote, nowSec: number): FirmView => {
  // Without tickers only the quote's own unit keeps its price (1 USDT is 1 USDT).
  const valuation = valuationIn(
    quote,
    (sources.tickers.status === 'fulfilled' ? sources.tickers.value : []).map((t) => ({
      pair: t.currency_pair,
      last: t.last,
      highestBid: t.highest_bid,
      lowestAsk: t.lowest_ask,
    })),
  );
  const price = (currency: string): Decimal | undefined => valuation(currency)?.price;
  const priceError = sources.tickers.status === 'rejected' ? describeFailure(sources.tickers.reason) : undefined;

  const main: Draft = { uid: sources.mainUid, label: 'Main account', role: 'main', holdings: [], errors: {} };
  const read = <T>(draft: Draft, account: FirmAccountType, source: Settled<T>, take: (value: T) => void) => {
    if (source.status === 'fulfilled') take(source.value);
    else draft.errors[account] = describeFailure(source.reason);
  };
  read(main, 'spot', sources.spot, (accounts) => {
    for (const a of accounts) {
      const amount = dec(a.available).plus(dec(a.locked));
      if (!amount.isZero()) main.holdings.push({ account: 'spot', currency: a.currency, amount: amount.toFixed() });
    }
  });
  read(main, 'margin', sources.margin, (accounts) => main.holdings.push(...marginHoldings(accounts)));
  read(main, 'crossMargin', sources.crossMargin, (account) => main.holdings.push(...crossHoldings(account)));
  read(main, 'futures', sources.futures, (accounts) => {
    for (const [i, a] of accounts.entries())
      main.holdings.push(...contractHolding('futures', a, FUTURES_SETTLES[i] ?? ''));
  });
  read(main, 'delivery', sources.delivery, (accounts) => {
    for (const [i, a] of accounts.entries()) {
      main.holdings.push(...contractHolding('delivery', a, DELIVERY_SETTLES[i] ?? ''));
    }
  });
  read(main, 'options', sources.options, (account) =>
    main.holdings.push(...contractHolding('options', account, 'USDT')),
  );

  // Sub-accounts: one row each, in the order the platform lists them; balances join by uid.
  const subs = new Map<string, Draft>();
  const subOf = (uid: string): Draft => {
    let draft = subs.get(uid);
    if (draft === undefined) {
      draft = { uid, label: `Sub-account ${uid}`, role: 'sub', holdings: [], errors: {} };
      subs.set(uid, draft);
    }
    return draft;
  };
  if (sources.subs.status === 'fulfilled') {
    for (const s of sources.subs.value) {
      const draft = subOf(String(s.user_id));
      draft.label = s.remark ? `${s.login_name} (${s.remark})` : s.login_name;
      draft.frozen = s.state === 2;
    }
  } else {
    main.errors.subAccounts = describeFailure(sources.subs.reason);
  }
  const forEverySub = <T>(account: FirmAccountType, source: Settled<readonly T[]>, take: (item: T) => void) => {
    if (source.status === 'fulfilled') {
      for (const item of source.value) take(item);
    } else {
      for (const draft of subs.values()) draft.errors[account] = describeFailure(source.reason);
    }
  };
  forEverySub('spot', sources.subSpot, (item) => {
    const draft = subOf(String(item.uid));
    for (const [currency, amount] of Object.entries(item.available)) {
      if (!dec(amount).isZero()) draft.holdings.push({ account: 'spot', currency, amount: dec(amount).toFixed() });
    }
  });
  forEverySub('margin', sources.subMargin, (item) =>
    subOf(String(item.uid)).holdings.push(...marginHoldings(item.available)),
  );
  forEverySub('futures', sources.subFutures, (item) => {
    const draft = subOf(String(item.uid));
    for (const [settle, account] of Object.entries(item.available)) {
      draft.holdings.push(...contractHolding('futures', account, settle));
    }
  });
  forEverySub('crossMargin', sources.subCrossMargin, (item) =>
    subOf(String(item.uid)).holdings.push(...crossHoldings(item.available)),
  );

  // Values and totals.
  const unpriced = new Set<string>();
  const byCurrency = new Map<string, { amount: Decimal; value: Decimal | undefined }>();
  let firmTotal = new Decimal(0);
  const accounts: FirmAccount[] = [main, ...subs.values()].map((draft) => {
    let accountValue = new Decimal(0);
    const holdings: FirmHolding[] = draft.holdings
      .map((h) => {
        const p = price(h.currency);
        const amount = new Decimal(h.amount);
        const value = p === undefined ? undefined : amount.mul(p).toDecimalPlaces(VALUE_DECIMALS);
        if (value === undefined) unpriced.add(h.currency);
        else accountValue = accountValue.plus(value);
        const entry = byCurrency.get(h.currency) ?? {
          amount: new Decimal(0),
          value: p === undefined ? undefined : new Decimal(0),
        };
        entry.amount = entry.amount.plus(amount);
        if (entry.value !== undefined && value !== undefined) entry.value = entry.value.plus(value);
        byCurrency.set(h.currency, entry);
        return { ...h, value: value === undefined ? null : value.toFixed() };
      })
      .sort((a, b) => a.account.localeCompare(b.account) || a.currency.localeCompare(b.currency));
    firmTotal = firmTotal.plus(accountValue);
    const errors = { ...draft.errors, ...(priceError ? { prices: priceError } : {}) };
    return {
      uid: draft.uid,
      label: draft.label,
      role: draft.role,
      ...(draft.frozen !== undefined ? { frozen: draft.frozen } : {}),
      holdings,
      value: accountValue.toFixed(),
      errors,
    };
  });
  const prices: Record<string, string> = {};
  for (const currency of byCurrency.keys()) {
    const p = price(currency);
    if (p !== undefined) prices[currency] = p.toDecimalPlaces(12).toFixed();
  }
  return {
    quote,
    fetchedAt: nowSec,
    prices,
    accounts,
    currencies: [...byCurrency.entries()]
      .map(([currency, e]) => ({
        currency,
        amount: e.amount.toFixed(),
        value: e.value === undefined ? null : e.value.toFixed(),
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    total: firmTotal.toFixed(),
    unpriced: [...unpriced].sort(),
    incomplete: accounts.some((a) => Object.keys(a.errors).length > 0),
    basis: BASIS[quote],
  };
};
