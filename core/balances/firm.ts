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

const ZERO = new Decimal(0);

const dec = (v: string | undefined | null): Decimal => {
  if (v === undefined || v === null || v === '') return ZERO;
  try {
    return new Decimal(v);
  } catch {
    return ZERO;
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

/** A holding as read, its amount kept as a Decimal until the view is written (parsed once, not per use). */
interface DraftHolding {
  readonly account: FirmAccountType;
  readonly currency: string;
  readonly amount: Decimal;
  readonly note?: string;
}

interface Draft {
  uid: string;
  label: string;
  role: 'main' | 'sub';
  frozen?: boolean;
  holdings: DraftHolding[];
  errors: Record<string, string>;
}

const marginHoldings = (accounts: readonly S.MarginAccount[]): DraftHolding[] =>
  accounts.flatMap((m) =>
    [m.base, m.quote].flatMap((side) => {
      const borrowed = dec(side.borrowed).plus(dec(side.interest));
      const net = dec(side.available).plus(dec(side.locked)).minus(borrowed);
      if (net.isZero() && borrowed.isZero()) return [];
      return [
        {
          account: 'margin' as const,
          currency: side.currency,
          amount: net,
          note: borrowed.isZero()
            ? `${m.currency_pair} pair`
            : `${m.currency_pair} pair, borrowed ${borrowed.toFixed()}`,
        },
      ];
    }),
  );

const crossHoldings = (account: S.CrossMarginAccount): DraftHolding[] =>
  Object.entries(account.balances ?? {}).flatMap(([currency, b]) => {
    const borrowed = dec(b.borrowed).plus(dec(b.interest));
    const net = dec(b.available).plus(dec(b.freeze)).minus(borrowed);
    if (net.isZero() && borrowed.isZero()) return [];
    return [
      {
        account: 'crossMargin' as const,
        currency,
        amount: net,
        ...(borrowed.isZero() ? {} : { note: `borrowed ${borrowed.toFixed()}` }),
      },
    ];
  });

/** A futures-style account (perpetual, delivery, options): its equity, total + unrealised PnL. */
const contractHolding = (
  account: FirmAccountType,
  a: { total?: string | undefined; unrealised_pnl?: string | undefined; currency?: string | undefined },
  fallbackCurrency: string,
): DraftHolding[] => {
  const pnl = dec(a.unrealised_pnl);
  const equity = dec(a.total).plus(pnl);
  if (equity.isZero()) return [];
  const currency = (a.currency || fallbackCurrency).toUpperCase();
  return [
    {
      account,
      currency,
      amount: equity,
      ...(pnl.isZero() ? {} : { note: `incl. unrealised PnL ${pnl.toFixed()}` }),
    },
  ];
};

/** Plain code-unit order: account types and currency codes are ASCII ids (and far cheaper than localeCompare at 10,000 holdings). */
const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

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
  // One valuation per currency, not per holding (20 currencies, 10,000 holdings at treasury scale).
  const prices = new Map<string, Decimal | undefined>();
  const price = (currency: string): Decimal | undefined => {
    if (!prices.has(currency)) prices.set(currency, valuation(currency)?.price);
    return prices.get(currency);
  };
  const priceError = sources.tickers.status === 'rejected' ? describeFailure(sources.tickers.reason) : undefined;

  const main: Draft = { uid: sources.mainUid, label: 'Main account', role: 'main', holdings: [], errors: {} };
  const read = <T>(draft: Draft, account: FirmAccountType, source: Settled<T>, take: (value: T) => void) => {
    if (source.status === 'fulfilled') take(source.value);
    else draft.errors[account] = describeFailure(source.reason);
  };
  read(main, 'spot', sources.spot, (accounts) => {
    for (const a of accounts) {
      const amount = dec(a.available).plus(dec(a.locked));
      if (!amount.isZero()) main.holdings.push({ account: 'spot', currency: a.currency, amount });
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
    for (const [currency, text] of Object.entries(item.available)) {
      const amount = dec(text);
      if (!amount.isZero()) draft.holdings.push({ account: 'spot', currency, amount });
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
  let firmTotal = ZERO;
  const accounts: FirmAccount[] = [main, ...subs.values()].map((draft) => {
    let accountValue = ZERO;
    const holdings: FirmHolding[] = draft.holdings
      .sort((a, b) => byId(a.account, b.account) || byId(a.currency, b.currency))
      .map((h) => {
        const p = price(h.currency);
        const value = p === undefined ? undefined : h.amount.mul(p).toDecimalPlaces(VALUE_DECIMALS);
        if (value === undefined) unpriced.add(h.currency);
        else accountValue = accountValue.plus(value);
        const entry = byCurrency.get(h.currency);
        if (entry === undefined) byCurrency.set(h.currency, { amount: h.amount, value });
        else {
          entry.amount = entry.amount.plus(h.amount);
          if (entry.value !== undefined && value !== undefined) entry.value = entry.value.plus(value);
        }
        const holding: FirmHolding = {
          account: h.account,
          currency: h.currency,
          amount: h.amount.toFixed(),
          value: value === undefined ? null : value.toFixed(),
        };
        if (h.note !== undefined) holding.note = h.note;
        return holding;
      });
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
  const quotedPrices: Record<string, string> = {};
  for (const currency of byCurrency.keys()) {
    const p = price(currency);
    if (p !== undefined) quotedPrices[currency] = p.toDecimalPlaces(12).toFixed();
  }
  return {
    quote,
    fetchedAt: nowSec,
    prices: quotedPrices,
    accounts,
    currencies: [...byCurrency.entries()]
      .map(([currency, e]) => ({
        currency,
        amount: e.amount.toFixed(),
        value: e.value === undefined ? null : e.value.toFixed(),
      }))
      .sort((a, b) => byId(a.currency, b.currency)),
    total: firmTotal.toFixed(),
    unpriced: [...unpriced].sort(byId),
    incomplete: accounts.some((a) => Object.keys(a.errors).length > 0),
    basis: BASIS[quote],
  };
};
