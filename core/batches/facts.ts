/**
 * What a batch is checked against, read from the platform (batches/validate.ts decides): listed
 * currencies, sub-accounts and whether they are frozen, the chains, rules and saved addresses of each
 * withdrawal currency, and what is available in every account a row takes funds from.
 */
import type { BatchRowInput } from '../../shared/contract/bulk';
import type { CurrencyChainInfo, SavedAddress, WithdrawRules } from '../../shared/contract/funding';
import type { PlatformApi } from '../api/platform';
import { toChain, toRules } from '../funding/records';
import { readAllPages } from '../subAccounts/pages';
import type { ActiveProfile } from '../types';
import { type BatchFacts, sourceKey, sourceOf } from './validate';

export interface FactsDeps {
  readonly platform: () => PlatformApi;
  readonly activeProfile: () => ActiveProfile | undefined;
  /** The saved addresses of a currency, as the withdrawal form reads them (with their use counts). */
  readonly savedAddresses: (currency: string) => Promise<SavedAddress[]>;
}

/** Sub-accounts by uid: login name, frozen. */
export const subAccountFacts = async (platform: PlatformApi) => {
  const list = await platform.subAccounts.list({ type: '0' });
  return new Map(list.map((s) => [Number(s.user_id), { loginName: s.login_name, frozen: s.state === 2 }]));
};

export const gatherFacts = async (deps: FactsDeps, inputs: readonly BatchRowInput[]): Promise<BatchFacts> => {
  const api = deps.platform();
  const withdrawCurrencies = [...new Set(inputs.filter((i) => i.type === 'withdrawal').map((i) => i.currency))];
  const sources = new Map<string, { ref: ReturnType<typeof sourceOf>; currency: string }>();
  for (const i of inputs) sources.set(sourceKey(sourceOf(i), i.currency), { ref: sourceOf(i), currency: i.currency });
  const subSpot = new Set<number>();
  const subFutures = new Set<number>();
  let mainSpot = false;
  for (const { ref } of sources.values()) {
    if (ref.owner === 'main' && ref.account === 'spot') mainSpot = true;
    else if (ref.owner !== 'main' && ref.account === 'spot') subSpot.add(ref.owner);
    else if (ref.owner !== 'main' && ref.account === 'futures') subFutures.add(ref.owner);
  }
  const [currencies, subAccounts, spot, subBalances] = await Promise.all([
    api.spot
      .currencies()
      .then((list) => new Set(list.map((c) => c.currency)))
      .catch(() => undefined),
    subAccountFacts(api),
    mainSpot ? api.spot.accounts() : Promise.resolve([]),
    subSpot.size === 0
      ? Promise.resolve([])
      : subSpot.size <= 5
        ? Promise.all([...subSpot].map((uid) => api.wallet.subAccountBalances({ sub_uid: String(uid) }))).then((r) =>
            r.flat(),
          )
        : readAllPages({
            read: (page) => api.wallet.subAccountBalances({ page, limit: 100 }),
            pageSize: 100,
            maxPages: 50,
          }),
  ]);
  const futures = await Promise.all(
    [...subFutures].map((uid) => api.wallet.subAccountFuturesBalances({ sub_uid: String(uid) }).catch(() => [])),
  );
  const chains = new Map<string, CurrencyChainInfo[]>();
  const rules = new Map<string, WithdrawRules>();
  const saved = new Map<string, SavedAddress[]>();
  for (const currency of withdrawCurrencies) {
    const [c, r, s] = await Promise.all([
      api.wallet.currencyChains(currency),
      api.wallet.withdrawStatus(currency),
      deps.savedAddresses(currency),
    ]);
    chains.set(currency, c.map(toChain));
    const rule = r.map(toRules).find((x) => x.currency === currency);
    if (rule) rules.set(currency, rule);
    saved.set(currency, s);
  }
  const available = new Map<string, string | null>();
  for (const [key, { ref, currency }] of sources) {
    if (ref.owner === 'main') {
      available.set(key, ref.account === 'spot' ? (spot.find((a) => a.currency === currency)?.available ?? '0') : null);
    } else if (ref.account === 'spot') {
      const row = subBalances.find((b) => Number(b.uid) === ref.owner);
      available.set(key, row ? (row.available[currency] ?? '0') : subAccounts.has(ref.owner) ? '0' : null);
    } else if (ref.account === 'futures') {
      const rows = futures.flat().filter((b) => Number(b.uid) === ref.owner);
      const settle = currency.toLowerCase();
      const acc = rows[0]?.available[settle] ?? rows[0]?.available[currency];
      available.set(key, rows.length ? (acc?.available ?? '0') : null);
    } else available.set(key, null);
  }
  const mainUserId = deps.activeProfile()?.userId;
  return {
    ...(currencies ? { currencies } : {}),
    ...(mainUserId !== undefined ? { mainUserId } : {}),
    subAccounts,
    chains,
    rules,
    saved,
    available,
  };
};
