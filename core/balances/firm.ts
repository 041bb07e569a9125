/**
 * The firm-wide view: the main account and every sub-account, each account type the platform
 * reports for it, every holding valued in one quote from the spot tickers. A source that cannot be
 * read is named on the accounts it concerns (never shown as zero), and a currency without a price is
 * listed as unpriced (never valued at zero).
 *
 * `readFirmSources` starts the platform reads (14 requests, all at once); `buildFirmView` takes them
 * as they arrive and reads nothing itself.
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

/** Every read at once, still under way (buildFirmView takes each as it arrives). */
export const readFirmSources = (api: PlatformApi, mainUid: string): PendingFirmSources => {
  // Each read settles on its own, so one failing source never hides the others.
  const settle = <T>(read: Promise<T>): Promise<Settled<T>> =>
    read.then(
      (value) => ({ status: 'fulfilled', value }),
      (reason: unknown) => ({ status: 'rejected', reason }),
    );
  return {
    mainUid,
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
  /** Valued as they were read; sorted when the view is written. */
  holdings: FirmHolding[];
  /** The sum of the priced holdings' values so far. */
  value: Decimal;
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

/** A source as read, or still being read: the view takes each as soon as it and those before it are in. */
export type PendingFirmSources = { readonly [K in keyof FirmSources]: FirmSources[K] | Promise<FirmSources[K]> };

/**
 * The view from what the platform answered; `quote` chooses the unit of every value. Sources still
 * being read are taken one by one, in a fixed order (so the view never depends on which read came
 * back first), each valued as it arrives: the work overlaps the reads still under way rather than
 * starting after the slowest (502 sub-accounts × 20 positions are 10,000 holdings).
 */
export const buildFirmView = async (
  sources: PendingFirmSources,
  quote: FirmQuote,
  nowSec: number,
): Promise<FirmView> => {
  // Without tickers only the quote's own unit keeps its price (1 USDT is 1 USDT).
  const tickers = await sources.tickers;
  const valuation = valuationIn(
    quote,
    (tickers.status === 'fulfilled' ? tickers.value : []).map((t) => ({
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
  const priceError = tickers.status === 'rejected' ? describeFailure(tickers.reason) : undefined;

  // Values and totals, added up holding by holding as each source is taken.
  const unpriced = new Set<string>();
  const byCurrency = new Map<string, { amount: Decimal; value: Decimal | undefined }>();
  const add = (draft: Draft, h: DraftHolding): void => {
    const p = price(h.currency);
    const value = p === undefined ? undefined : h.amount.mul(p).toDecimalPlaces(VALUE_DECIMALS);
    if (value === undefined) unpriced.add(h.currency);
    else draft.value = draft.value.plus(value);
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
    draft.holdings.push(holding);
  };
  const addAll = (draft: Draft, holdings: readonly DraftHolding[]): void => {
    for (const h of holdings) add(draft, h);
  };

  const main: Draft = {
    uid: await sources.mainUid,
    label: 'Main account',
    role: 'main',
    holdings: [],
    value: ZERO,
    errors: {},
  };
  const read = async <T>(
    draft: Draft,
    account: FirmAccountType,
    pending: Settled<T> | Promise<Settled<T>>,
    take: (value: T) => void,
  ) => {
    const source = await pending;
    if (source.status === 'fulfilled') take(source.value);
    else draft.errors[account] = describeFailure(source.reason);
  };
  await read(main, 'spot', sources.spot, (accounts) => {
    for (const a of accounts) {
      const amount = dec(a.available).plus(dec(a.locked));
      if (!amount.isZero()) add(main, { account: 'spot', currency: a.currency, amount });
    }
  });
  await read(main, 'margin', sources.margin, (accounts) => addAll(main, marginHoldings(accounts)));
  await read(main, 'crossMargin', sources.crossMargin, (account) => addAll(main, crossHoldings(account)));
  await read(main, 'futures', sources.futures, (accounts) => {
    for (const [i, a] of accounts.entries()) addAll(main, contractHolding('futures', a, FUTURES_SETTLES[i] ?? ''));
  });
  await read(main, 'delivery', sources.delivery, (accounts) => {
    for (const [i, a] of accounts.entries()) addAll(main, contractHolding('delivery', a, DELIVERY_SETTLES[i] ?? ''));
  });
  await read(main, 'options', sources.options, (account) => addAll(main, contractHolding('options', account, 'USDT')));

  // Sub-accounts: one row each, in the order the platform lists them; balances join by uid.
  const subs = new Map<string, Draft>();
  const subOf = (uid: string): Draft => {
    let draft = subs.get(uid);
    if (draft === undefined) {
      draft = { uid, label: `Sub-account ${uid}`, role: 'sub', holdings: [], value: ZERO, errors: {} };
      subs.set(uid, draft);
    }
    return draft;
  };
  const list = await sources.subs;
  if (list.status === 'fulfilled') {
    for (const s of list.value) {
      const draft = subOf(String(s.user_id));
      draft.label = s.remark ? `${s.login_name} (${s.remark})` : s.login_name;
      draft.frozen = s.state === 2;
    }
  } else {
    main.errors.subAccounts = describeFailure(list.reason);
  }
  const forEverySub = async <T>(
    account: FirmAccountType,
    pending: Settled<readonly T[]> | Promise<Settled<readonly T[]>>,
    take: (item: T) => void,
  ) => {
    const source = await pending;
    if (source.status === 'fulfilled') {
      for (const item of source.value) take(item);
    } else {
      for (const draft of subs.values()) draft.errors[account] = describeFailure(source.reason);
    }
  };
  await forEverySub('spot', sources.subSpot, (item) => {
    const draft = subOf(String(item.uid));
    for (const [currency, text] of Object.entries(item.available)) {
      const amount = dec(text);
      if (!amount.isZero()) add(draft, { account: 'spot', currency, amount });
    }
  });
  await forEverySub('margin', sources.subMargin, (item) =>
    addAll(subOf(String(item.uid)), marginHoldings(item.available)),
  );
  await forEverySub('futures', sources.subFutures, (item) => {
    const draft = subOf(String(item.uid));
    for (const [settle, account] of Object.entries(item.available)) {
      addAll(draft, contractHolding('futures', account, settle));
    }
  });
  await forEverySub('crossMargin', sources.subCrossMargin, (item) =>
    addAll(subOf(String(item.uid)), crossHoldings(item.available)),
  );

  let firmTotal = ZERO;
  const accounts: FirmAccount[] = [main, ...subs.values()].map((draft) => {
    firmTotal = firmTotal.plus(draft.value);
    const errors = { ...draft.errors, ...(priceError ? { prices: priceError } : {}) };
    return {
      uid: draft.uid,
      label: draft.label,
      role: draft.role,
      ...(draft.frozen !== undefined ? { frozen: draft.frozen } : {}),
      holdings: draft.holdings.sort((a, b) => byId(a.account, b.account) || byId(a.currency, b.currency)),
      value: draft.value.toFixed(),
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
