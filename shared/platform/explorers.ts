/**
 * Block explorers per chain, for the "View on explorer" links of addresses and transaction ids.
 *
 * The key is the platform's chain code (what `currency_chains` and the withdrawal records call
 * `chain`). Each entry names one public explorer that needs no account, the host it lives on and how
 * it writes an address and a transaction page. The hosts are also the only places main will open a
 * link to (`app.openExternal`): main refuses any URL that is not https on one of these hosts, so
 * adding a chain here is the one change that makes its links work.
 *
 * | chain            | explorer              | address page                 | transaction page                 |
 * | ---------------- | --------------------- | ---------------------------- | -------------------------------- |
 * | ETH              | Etherscan             | /address/<a>                 | /tx/<t>                          |
 * | TRX              | Tronscan              | /#/address/<a>               | /#/transaction/<t>               |
 * | BTC              | mempool.space         | /address/<a>                 | /tx/<t>                          |
 * | SOL              | Solscan               | /account/<a>                 | /tx/<t>                          |
 * | TON              | Tonviewer             | /<a>                         | /transaction/<t>                 |
 * | XRP              | XRPSCAN               | /account/<a>                 | /tx/<t>                          |
 * | BSC              | BscScan               | /address/<a>                 | /tx/<t>                          |
 * | MATIC, POL       | PolygonScan           | /address/<a>                 | /tx/<t>                          |
 * | ARBEVM           | Arbiscan              | /address/<a>                 | /tx/<t>                          |
 * | OPETH            | Optimism Etherscan    | /address/<a>                 | /tx/<t>                          |
 * | BASEEVM          | BaseScan              | /address/<a>                 | /tx/<t>                          |
 * | AVAX_C           | Snowtrace             | /address/<a>                 | /tx/<t>                          |
 * | DOGE, LTC, BCH   | Blockchair            | /<coin>/address/<a>          | /<coin>/transaction/<t>          |
 *
 * A chain missing here simply gets no link (the id can still be copied). Pure: no DOM, no Node.
 */

export interface Explorer {
  /** Shown to people: "View on Etherscan". */
  readonly name: string;
  /** The only host links go to (https). */
  readonly host: string;
  /** Path (and fragment) of an address page, the address already URL-encoded. */
  readonly addressPath: (address: string) => string;
  /** Path (and fragment) of a transaction page, the id already URL-encoded. */
  readonly txPath: (txid: string) => string;
}

const scan = (name: string, host: string): Explorer => ({
  name,
  host,
  addressPath: (a) => `/address/${a}`,
  txPath: (t) => `/tx/${t}`,
});

const blockchair = (coin: string): Explorer => ({
  name: 'Blockchair',
  host: 'blockchair.com',
  addressPath: (a) => `/${coin}/address/${a}`,
  txPath: (t) => `/${coin}/transaction/${t}`,
});

export const EXPLORERS: Readonly<Record<string, Explorer>> = {
  ETH: scan('Etherscan', 'etherscan.io'),
  TRX: {
    name: 'Tronscan',
    host: 'tronscan.org',
    addressPath: (a) => `/#/address/${a}`,
    txPath: (t) => `/#/transaction/${t}`,
  },
  BTC: scan('mempool.space', 'mempool.space'),
  SOL: { name: 'Solscan', host: 'solscan.io', addressPath: (a) => `/account/${a}`, txPath: (t) => `/tx/${t}` },
  TON: { name: 'Tonviewer', host: 'tonviewer.com', addressPath: (a) => `/${a}`, txPath: (t) => `/transaction/${t}` },
  XRP: { name: 'XRPSCAN', host: 'xrpscan.com', addressPath: (a) => `/account/${a}`, txPath: (t) => `/tx/${t}` },
  BSC: scan('BscScan', 'bscscan.com'),
  MATIC: scan('PolygonScan', 'polygonscan.com'),
  POL: scan('PolygonScan', 'polygonscan.com'),
  ARBEVM: scan('Arbiscan', 'arbiscan.io'),
  OPETH: scan('Optimism Etherscan', 'optimistic.etherscan.io'),
  BASEEVM: scan('BaseScan', 'basescan.org'),
  AVAX_C: scan('Snowtrace', 'snowtrace.io'),
  DOGE: blockchair('dogecoin'),
  LTC: blockchair('litecoin'),
  BCH: blockchair('bitcoin-cash'),
};

/** Every host main may open a link to. */
export const EXPLORER_HOSTS: ReadonlySet<string> = new Set(Object.values(EXPLORERS).map((e) => e.host));

export const explorerFor = (chain: string | undefined): Explorer | undefined =>
  chain ? EXPLORERS[chain.toUpperCase()] : undefined;

/** What a link shows. */
export type ExplorerTarget = 'address' | 'tx';

/** An identifier safe to put in a path: what addresses and txids are made of (no spaces, slashes, …). */
const ID = /^[A-Za-z0-9:_.+=-]{1,200}$/;

/** The explorer page of an address or transaction on a chain, or undefined (unknown chain, odd id). */
export const explorerUrl = (chain: string | undefined, target: ExplorerTarget, id: string): string | undefined => {
  const explorer = explorerFor(chain);
  if (!explorer || !ID.test(id)) return undefined;
  const encoded = encodeURIComponent(id);
  return `https://${explorer.host}${target === 'address' ? explorer.addressPath(encoded) : explorer.txPath(encoded)}`;
};

/** Longest link main opens. */
export const MAX_EXTERNAL_URL = 500;

/**
 * Why main will not open this URL, or undefined when it may: https only, exactly one of the
 * explorers' hosts (no user, no port, no look-alike such as `etherscan.io.example.com`), printable
 * ASCII without spaces or backslashes. Text-only (shared has no URL parser); main parses it again.
 */
export const externalUrlProblem = (url: string): string | undefined => {
  if (url.length > MAX_EXTERNAL_URL) return 'The link is too long.';
  if (!/^[\x21-\x7e]+$/.test(url) || url.includes('\\')) return 'The link has characters a web address cannot have.';
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([/?#].*)?$/.exec(url);
  if (!match) return 'This is not a web address.';
  const [, scheme, authority] = match;
  if (scheme?.toLowerCase() !== 'https') return 'Only https links are opened.';
  if (!EXPLORER_HOSTS.has((authority ?? '').toLowerCase())) {
    return `Only links to the block explorers the app knows are opened (${[...EXPLORER_HOSTS].join(', ')}).`;
  }
  return undefined;
};
