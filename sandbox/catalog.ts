/**
 * What the sandbox trades and moves: currencies, their chains, fees and limits, and the static
 * USDT prices used until a market module (sandbox/spot) provides live ones. One place, so the wallet
 * endpoints, the withdrawal checks, the seed data and the docs agree.
 */
/**
 * How a chain's addresses are written (sandbox/wallet/addresses.ts builds each one with its real
 * encoding and checksum): `btc` bech32 `bc1q…` (P2WPKH, 42 chars), `doge` base58check `D…` (34),
 * `evm` `0x` + 40 hex, `tron` base58check `T…` (34), `solana` base58 of 32 bytes (32–44), `ton`
 * user-friendly base64url `UQ…`/`EQ…` (48), `xrp` base58check in the Ripple alphabet `r…` (25–35).
 */
export type AddressStyle = 'btc' | 'doge' | 'evm' | 'tron' | 'solana' | 'ton' | 'xrp';

export interface ChainDef {
  readonly chain: string;
  readonly nameEn: string;
  readonly nameCn: string;
  readonly contractAddress: string;
  /** Withdrawal precision (decimal places). */
  readonly decimal: number;
  /** Whether deposits/withdrawals need a memo or tag, and what it is called. */
  readonly tag: false | 'Memo' | 'Tag';
  readonly withdrawFix: string;
  readonly minConfirms: number;
  readonly disabled?: boolean;
  readonly depositDisabled?: boolean;
  readonly withdrawDisabled?: boolean;
  /** How addresses of this chain look. */
  readonly addressStyle: AddressStyle;
}

export interface CurrencyDef {
  readonly currency: string;
  readonly name: string;
  readonly nameCn: string;
  /** Static price in USDT (replaced by live prices when the market runs). */
  readonly usdtPrice: string;
  readonly chains: readonly ChainDef[];
  /** Withdrawal fee rate in percent (withdraw_percent). */
  readonly withdrawPercent: string;
  readonly withdrawMin: string;
  readonly withdrawEachTimeLimit: string;
  readonly withdrawDayLimit: string;
  readonly minDeposit: string;
  /** Withdrawals and deposits at or above this amount go through manual review. */
  readonly reviewThreshold: string;
  /** Extremely low-value currency: listed by getLowCapExchangeList, absent from currency_chains. */
  readonly lowCap?: boolean;
}

const evm = (chain: string, nameEn: string, contract: string, fix: string, decimal = 6): ChainDef => ({
  chain,
  nameEn,
  nameCn: nameEn,
  contractAddress: contract,
  decimal,
  tag: false,
  withdrawFix: fix,
  minConfirms: 12,
  addressStyle: 'evm',
});

export const CURRENCIES: readonly CurrencyDef[] = [
  {
    currency: 'BTC',
    name: 'Bitcoin',
    nameCn: '比特币',
    usdtPrice: '65000',
    chains: [
      {
        chain: 'BTC',
        nameEn: 'Bitcoin',
        nameCn: '比特币',
        contractAddress: '',
        decimal: 8,
        tag: false,
        withdrawFix: '0.0005',
        minConfirms: 2,
        addressStyle: 'btc',
      },
    ],
    withdrawPercent: '0',
    withdrawMin: '0.001',
    withdrawEachTimeLimit: '100',
    withdrawDayLimit: '500',
    minDeposit: '0.0001',
    reviewThreshold: '10',
  },
  {
    currency: 'ETH',
    name: 'Ethereum',
    nameCn: '以太坊',
    usdtPrice: '3500',
    chains: [evm('ETH', 'Ethereum (ERC20)', '', '0.003', 8)],
    withdrawPercent: '0',
    withdrawMin: '0.01',
    withdrawEachTimeLimit: '1000',
    withdrawDayLimit: '5000',
    minDeposit: '0.001',
    reviewThreshold: '100',
  },
  {
    currency: 'USDT',
    name: 'Tether',
    nameCn: '泰达币',
    usdtPrice: '1',
    chains: [
      evm('ETH', 'Ethereum (ERC20)', '0xdac17f958d2ee523a2206206994597c13d831ec7', '5'),
      {
        chain: 'TRX',
        nameEn: 'Tron (TRC20)',
        nameCn: '波场',
        contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        decimal: 6,
        tag: false,
        withdrawFix: '1',
        minConfirms: 20,
        addressStyle: 'tron',
      },
      {
        chain: 'TON',
        nameEn: 'Toncoin (TON)',
        nameCn: 'TON',
        contractAddress: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
        decimal: 6,
        tag: 'Memo',
        withdrawFix: '0.5',
        minConfirms: 1,
        addressStyle: 'ton',
      },
      {
        chain: 'SOL',
        nameEn: 'Solana (SPL)',
        nameCn: 'Solana (SPL)',
        contractAddress: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
        decimal: 6,
        tag: false,
        withdrawFix: '1',
        minConfirms: 12,
        addressStyle: 'solana',
        withdrawDisabled: true,
      },
    ],
    withdrawPercent: '0',
    withdrawMin: '10',
    withdrawEachTimeLimit: '1000000',
    withdrawDayLimit: '2000000',
    minDeposit: '1',
    reviewThreshold: '100000',
  },
  {
    currency: 'GT',
    name: 'GateToken',
    nameCn: 'GT',
    usdtPrice: '8',
    chains: [evm('GTEVM', 'GateChain', '', '0.01', 8)],
    withdrawPercent: '0',
    withdrawMin: '1',
    withdrawEachTimeLimit: '100000',
    withdrawDayLimit: '500000',
    minDeposit: '0.1',
    reviewThreshold: '50000',
  },
  {
    currency: 'XRP',
    name: 'Ripple',
    nameCn: '瑞波币',
    usdtPrice: '0.6',
    chains: [
      {
        chain: 'XRP',
        nameEn: 'Ripple',
        nameCn: '瑞波币',
        contractAddress: '',
        decimal: 6,
        tag: 'Tag',
        withdrawFix: '0.25',
        minConfirms: 1,
        addressStyle: 'xrp',
      },
    ],
    withdrawPercent: '0',
    withdrawMin: '20',
    withdrawEachTimeLimit: '1000000',
    withdrawDayLimit: '5000000',
    minDeposit: '1',
    reviewThreshold: '500000',
  },
  {
    currency: 'DOGE',
    name: 'Dogecoin',
    nameCn: '狗狗币',
    usdtPrice: '0.12',
    chains: [
      {
        chain: 'DOGE',
        nameEn: 'Dogecoin',
        nameCn: '狗狗币',
        contractAddress: '',
        decimal: 4,
        tag: false,
        withdrawFix: '5',
        minConfirms: 40,
        addressStyle: 'doge',
      },
    ],
    withdrawPercent: '0',
    withdrawMin: '50',
    withdrawEachTimeLimit: '5000000',
    withdrawDayLimit: '10000000',
    minDeposit: '10',
    reviewThreshold: '5000000',
  },
  {
    currency: 'SHIB',
    name: 'Shiba Inu',
    nameCn: '柴犬币',
    usdtPrice: '0.000018',
    chains: [evm('ETH', 'Ethereum (ERC20)', '0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce', '900000', 0)],
    withdrawPercent: '0',
    withdrawMin: '1000000',
    withdrawEachTimeLimit: '100000000000',
    withdrawDayLimit: '500000000000',
    minDeposit: '100000',
    reviewThreshold: '100000000000',
  },
  {
    currency: 'PEPE',
    name: 'Pepe',
    nameCn: 'PEPE',
    usdtPrice: '0.0000085',
    chains: [evm('ETH', 'Ethereum (ERC20)', '0x6982508145454ce325ddbe47a25d4ec3d2311933', '2000000', 0)],
    withdrawPercent: '0',
    withdrawMin: '2000000',
    withdrawEachTimeLimit: '1000000000000',
    withdrawDayLimit: '5000000000000',
    minDeposit: '1000000',
    reviewThreshold: '1000000000000',
  },
  {
    currency: 'DUST',
    name: 'Dust Token',
    nameCn: 'DUST',
    usdtPrice: '0.0000004',
    chains: [evm('ETH', 'Ethereum (ERC20)', '0x00000000000000000000000000000000000d0057', '10000000', 0)],
    withdrawPercent: '0.1',
    withdrawMin: '10000000',
    withdrawEachTimeLimit: '1000000000000',
    withdrawDayLimit: '1000000000000',
    minDeposit: '10000000',
    reviewThreshold: '1000000000000',
    lowCap: true,
  },
];

const BY_CODE = new Map(CURRENCIES.map((c) => [c.currency, c]));

export function currencyDef(code: string): CurrencyDef | undefined {
  return BY_CODE.get(code);
}

export function chainDef(currency: CurrencyDef, chain: string): ChainDef | undefined {
  return currency.chains.find((c) => c.chain === chain);
}

const STYLE_OF_CHAIN = new Map(CURRENCIES.flatMap((c) => c.chains.map((ch) => [ch.chain, ch.addressStyle] as const)));

/** How a chain writes its addresses and transaction ids (a chain is one network, whatever the currency). */
export function chainStyle(chain: string): AddressStyle | undefined {
  return STYLE_OF_CHAIN.get(chain);
}

/** Isolated-margin pairs (POST /wallet/transfers with margin, sub-account margin balances). */
export const MARGIN_PAIRS: readonly string[] = ['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'ETH_BTC'];

/** Settle currencies of perpetual (futures) and delivery accounts (lower case, as in paths). */
export const FUTURES_SETTLES: readonly string[] = ['usdt', 'btc'];
export const DELIVERY_SETTLES: readonly string[] = ['usdt'];

/** Small balances below this USDT value can be converted to GT. */
export const SMALL_BALANCE_MAX_USDT = '5';

/** Rates for GET /wallet/total_balance?currency=CNY|USD (static). */
export const FIAT_PER_USDT: Readonly<Record<string, string>> = { USD: '1', CNY: '7.2' };
