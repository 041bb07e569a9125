/**
 * A day at the desk, as main would answer it: a running BTC_USDT market, a main account with
 * balances in many currencies and account types, three sub-accounts, two withdrawals waiting for
 * approval, open and finished orders, deposits, withdrawals, transfers, batches and an audit log.
 * Every answer is typed against the contract's output (and `sceneAnswers` is checked against the
 * output schemas by the tests that use it), so the scene stays what main can send.
 *
 * Texts main writes (an approval's summary and reasons) are written with the same formatter main
 * uses. Values are written the way the platform writes them (trailing zeros included, "2.50000000"), so a
 * screen that prints them without the formatter shows it. The same value appears in several places
 * on purpose (the last price in the ticker, the book and the trades; the BTC balance in the spot
 * table, the firm view and the ticket) so two renderings that differ are caught.
 */
import type { DeskOperation } from '../../../../shared/contract';
import type { Order } from '../../../../shared/contract/trade';
import { formatMoney } from '../../../../shared/format/money';
import type { RawOutputOf } from '../../../../shared/ipc/define';
import type { Answers, OperationOf } from './fakeDesk';

/** Thursday 27 November 2026, 14:30:00 UTC: the scene's "now". */
export const SCENE_NOW = Date.UTC(2026, 10, 27, 14, 30, 0);
const NOW_S = Math.floor(SCENE_NOW / 1000);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

type Out<N extends DeskOperation> = RawOutputOf<OperationOf<N>>;
const typed = <N extends DeskOperation>(value: Out<N>): Out<N> => value;

const MAIN_UID = 10_000_001;
const SUBS = [
  { userId: 10_000_002, loginName: 'desk_trading', remark: 'Trading desk' },
  { userId: 10_000_003, loginName: 'desk_ops', remark: 'OTC desk' },
  { userId: 10_000_004, loginName: 'desk_mm', remark: 'Market making' },
] as const;

// --- the market: BTC_USDT at 64,974.5 ----------------------------------------------------------

export const SCENE_LAST = '64974.5';
const pairs = typed<'trade.pairs'>([
  {
    id: 'BTC_USDT',
    base: 'BTC',
    quote: 'USDT',
    precision: 1,
    amountPrecision: 6,
    minBaseAmount: '0.00001',
    minQuoteAmount: '3',
    maxQuoteAmount: '5000000',
    tradeStatus: 'tradable',
  },
  {
    id: 'ETH_USDT',
    base: 'ETH',
    quote: 'USDT',
    precision: 2,
    amountPrecision: 4,
    minBaseAmount: '0.0001',
    minQuoteAmount: '3',
    tradeStatus: 'tradable',
  },
  {
    id: 'GT_USDT',
    base: 'GT',
    quote: 'USDT',
    precision: 3,
    amountPrecision: 2,
    minBaseAmount: '0.01',
    minQuoteAmount: '3',
    tradeStatus: 'tradable',
  },
  {
    id: 'XRP_USDT',
    base: 'XRP',
    quote: 'USDT',
    precision: 4,
    amountPrecision: 1,
    minBaseAmount: '1',
    minQuoteAmount: '3',
    tradeStatus: 'tradable',
  },
  {
    id: 'DOGE_USDT',
    base: 'DOGE',
    quote: 'USDT',
    precision: 5,
    amountPrecision: 0,
    minBaseAmount: '10',
    minQuoteAmount: '3',
    tradeStatus: 'tradable',
  },
]);

const tickers = typed<'trade.tickers'>([
  {
    pair: 'BTC_USDT',
    last: SCENE_LAST,
    changePercentage: '1.37',
    high24h: '65210.0',
    low24h: '63802.1',
    baseVolume: '412.338201',
    quoteVolume: '26790412.88',
    lowestAsk: '64974.6',
    highestBid: '64974.4',
  },
  {
    pair: 'ETH_USDT',
    last: '3481.27',
    changePercentage: '-0.84',
    high24h: '3529.90',
    low24h: '3450.00',
    baseVolume: '5120.4410',
    quoteVolume: '17840220.51',
    lowestAsk: '3481.28',
    highestBid: '3481.26',
  },
  {
    pair: 'GT_USDT',
    last: '8.412',
    changePercentage: '0.12',
    high24h: '8.501',
    low24h: '8.350',
    baseVolume: '90412.22',
    quoteVolume: '760211.04',
  },
  {
    pair: 'XRP_USDT',
    last: '0.6123',
    changePercentage: '2.9',
    high24h: '0.6201',
    low24h: '0.5940',
    baseVolume: '1820331.5',
    quoteVolume: '1114221.9',
  },
  {
    pair: 'DOGE_USDT',
    last: '0.16244',
    changePercentage: '-3.1',
    high24h: '0.17010',
    low24h: '0.16002',
    baseVolume: '40221880',
    quoteVolume: '6533112.4',
  },
]);

/** Ten levels a side around 64,974.5: prices at the pair's precision, amounts as the platform sends them. */
const book = (() => {
  const asks: [string, string][] = [];
  const bids: [string, string][] = [];
  const amounts = ['0.412', '1.2', '0.038211', '2.5', '0.9', '0.004', '3.1201', '0.75', '1.05', '5'];
  for (let i = 0; i < 10; i++) {
    asks.push([(649746 + i * 3).toString().replace(/(\d)$/, '.$1'), amounts[i] ?? '1']);
    bids.push([(649744 - i * 3).toString().replace(/(\d)$/, '.$1'), amounts[9 - i] ?? '1']);
  }
  return typed<'trade.bookSnapshot'>({
    pair: 'BTC_USDT',
    version: 1044,
    bookId: 'b-1',
    updatedAt: SCENE_NOW - 400,
    asks,
    bids,
  });
})();

const trades: Out<'trade.watchMarket'>['trades'] = [
  { id: 't-9', side: 'buy', price: SCENE_LAST, amount: '0.012', createTimeMs: SCENE_NOW - 2_000 },
  { id: 't-8', side: 'sell', price: '64974.4', amount: '0.5', createTimeMs: SCENE_NOW - 9_000 },
  { id: 't-7', side: 'buy', price: '64975.1', amount: '0.000412', createTimeMs: SCENE_NOW - 31_000 },
  { id: 't-6', side: 'sell', price: '64970.0', amount: '1.25', createTimeMs: SCENE_NOW - 64_000 },
];

const candles = Array.from({ length: 60 }, (_, i) => {
  const base = 64_800 + Math.round(Math.sin(i / 6) * 120) + i * 3;
  const open = `${base}.${i % 10}`;
  const close = i === 59 ? SCENE_LAST : `${base + 12}.${(i * 3) % 10}`;
  return {
    t: Math.floor((SCENE_NOW - (59 - i) * MIN) / 1000 / 60) * 60,
    open,
    high: `${base + 40}.0`,
    low: `${base - 35}.5`,
    close,
    baseVolume: `${(i % 7) + 1}.${i}01`,
    quoteVolume: `${((i % 7) + 1) * 64_900}.25`,
    closed: i !== 59,
  };
});

const order = (o: Partial<Order> & { id: string }): Order => ({
  text: `t-desk${o.id}`,
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '64500.0',
  amount: '0.25',
  left: '0.25',
  filledAmount: '0',
  filledTotal: '0',
  avgDealPrice: '0',
  fee: '0',
  feeCurrency: 'BTC',
  timeInForce: 'gtc',
  status: 'open',
  finishAs: 'open',
  createTimeMs: SCENE_NOW - 40 * MIN,
  updateTimeMs: SCENE_NOW - 40 * MIN,
  ...o,
});

const openOrders = [
  order({ id: '7712001', price: '64500.0', amount: '0.25', left: '0.25' }),
  order({
    id: '7712002',
    side: 'sell',
    price: '66000.0',
    amount: '0.150000',
    left: '0.1',
    filledAmount: '0.05',
    filledTotal: '3300',
    avgDealPrice: '66000.0',
    fee: '6.6',
    feeCurrency: 'USDT',
  }),
];
const orderHistory = [
  order({
    id: '7711990',
    status: 'closed',
    finishAs: 'filled',
    amount: '0.1',
    left: '0',
    price: SCENE_LAST,
    filledAmount: '0.1',
    filledTotal: '6497.45',
    avgDealPrice: SCENE_LAST,
    fee: '0.0002',
    createTimeMs: SCENE_NOW - 3 * HOUR,
    updateTimeMs: SCENE_NOW - 3 * HOUR,
  }),
  order({
    id: '7711981',
    status: 'cancelled',
    finishAs: 'cancelled',
    side: 'sell',
    price: '67000.0',
    amount: '0.3',
    left: '0.3',
    createTimeMs: SCENE_NOW - 26 * HOUR,
    updateTimeMs: SCENE_NOW - 25 * HOUR,
  }),
];
const myTrades = typed<'trade.myTrades'>([
  {
    id: '40001',
    pair: 'BTC_USDT',
    orderId: '7711990',
    side: 'buy',
    role: 'taker',
    price: SCENE_LAST,
    amount: '0.1',
    fee: '0.0002',
    feeCurrency: 'BTC',
    text: 't-desk7711990',
    createTimeMs: SCENE_NOW - 3 * HOUR,
  },
  {
    id: '40002',
    pair: 'BTC_USDT',
    orderId: '7712002',
    side: 'sell',
    role: 'maker',
    price: '66000.0',
    amount: '0.05',
    fee: '6.6',
    feeCurrency: 'USDT',
    text: 't-desk7712002',
    createTimeMs: SCENE_NOW - 35 * MIN,
  },
]);

// --- balances -----------------------------------------------------------------------------------

const spot = typed<'balances.spot'>([
  { currency: 'USDT', available: '243310.25', locked: '16125', total: '259435.25' },
  { currency: 'BTC', available: '2.35', locked: '0.15', total: '2.50000000' },
  { currency: 'ETH', available: '40', locked: '0', total: '40' },
  { currency: 'GT', available: '1200', locked: '0', total: '1200' },
  { currency: 'XRP', available: '5000', locked: '0', total: '5000' },
  { currency: 'DOGE', available: '20000', locked: '0', total: '20000' },
]);

const firm = typed<'balances.firm'>({
  quote: 'USDT',
  fetchedAt: NOW_S - 20,
  prices: { BTC: SCENE_LAST, ETH: '3481.27', GT: '8.412', XRP: '0.6123', DOGE: '0.16244', USDT: '1' },
  accounts: [
    {
      uid: String(MAIN_UID),
      label: 'Main account',
      role: 'main',
      holdings: [
        { account: 'spot', currency: 'USDT', amount: '259435.25', value: '259435.25' },
        { account: 'spot', currency: 'BTC', amount: '2.5', value: '162436.25', note: 'BTC_USDT pair' },
        { account: 'spot', currency: 'ETH', amount: '40', value: '139250.8', note: 'ETH_USDT pair' },
        { account: 'futures', currency: 'USDT', amount: '20000', value: '20000', note: 'USDT-settled' },
        { account: 'margin', currency: 'BTC', amount: '0.1', value: '6497.45', note: 'BTC_USDT pair' },
      ],
      value: '587619.75',
      errors: {},
    },
    {
      uid: String(SUBS[0].userId),
      label: SUBS[0].loginName,
      role: 'sub',
      holdings: [
        { account: 'spot', currency: 'USDT', amount: '10000', value: '10000' },
        { account: 'spot', currency: 'BTC', amount: '0.2', value: '12994.9', note: 'BTC_USDT pair' },
        { account: 'futures', currency: 'USDT', amount: '2500', value: '2500', note: 'USDT-settled' },
      ],
      value: '25494.9',
      errors: {},
    },
    {
      uid: String(SUBS[1].userId),
      label: SUBS[1].loginName,
      role: 'sub',
      holdings: [
        { account: 'spot', currency: 'USDT', amount: '2000', value: '2000' },
        { account: 'spot', currency: 'ETH', amount: '1.5', value: '5221.905', note: 'ETH_USDT pair' },
      ],
      value: '7221.905',
      errors: {},
    },
    {
      uid: String(SUBS[2].userId),
      label: SUBS[2].loginName,
      role: 'sub',
      frozen: true,
      holdings: [{ account: 'spot', currency: 'USDT', amount: '750.5', value: '750.5' }],
      value: '750.5',
      errors: {},
    },
  ],
  currencies: [
    { currency: 'USDT', amount: '294686.25', value: '294686.25' },
    { currency: 'BTC', amount: '2.8', value: '181928.6' },
    { currency: 'ETH', amount: '41.5', value: '144472.705' },
  ],
  total: '621087.055',
  unpriced: [],
  incomplete: false,
  basis: 'Valued in USDT from the spot tickers.',
});

// --- funding ------------------------------------------------------------------------------------

const TRX_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const ETH_ADDRESS = '0x8f3a5c1d9e2b4a7f6c0d1e2f3a4b5c6d7e8f9a0b';
const withdrawRules = typed<'funding.withdrawRules'>([
  {
    currency: 'USDT',
    feeFixed: '1',
    feeFixedOnChains: { TRX: '1', ETH: '4.5' },
    feePercentOnChains: {},
    dayLimit: '1000000',
    dayLimitRemaining: '998800',
    minAmount: '10',
    maxPerWithdrawal: '500000',
  },
  {
    currency: 'BTC',
    feeFixed: '0.0005',
    feeFixedOnChains: { BTC: '0.0005' },
    feePercentOnChains: {},
    dayLimit: '20',
    dayLimitRemaining: '20',
    minAmount: '0.001',
    maxPerWithdrawal: '10',
  },
]);

const deposits = typed<'funding.deposits'>([
  {
    id: 'd30000004',
    time: NOW_S - 20 * 60,
    amount: '1500.75',
    currency: 'USDT',
    address: TRX_ADDRESS,
    status: 'TRACK',
    chain: 'TRX',
    txid: '6f1c0b0a3e5d4c2b1a09f8e7d6c5b4a3928170f6e5d4c3b2a1908f7e6d5c4b3a',
  },
  {
    id: 'd30000002',
    time: NOW_S - 2 * 86_400,
    amount: '0.5',
    currency: 'BTC',
    address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    status: 'DONE',
    chain: 'BTC',
    txid: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
  },
]);
const withdrawals = typed<'funding.withdrawals'>([
  {
    id: 'w20000003',
    withdrawOrderId: 'td-wd-0003',
    time: NOW_S - 50 * 60,
    amount: '2500',
    fee: '1',
    currency: 'USDT',
    address: TRX_ADDRESS,
    status: 'EXTPEND',
    chain: 'TRX',
    txid: '9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49382716f5e4d3c2b1a0f9e8d7c6b5a493',
  },
  {
    id: 'w20000001',
    time: NOW_S - 2 * 86_400,
    amount: '1200',
    fee: '1',
    currency: 'USDT',
    address: TRX_ADDRESS,
    status: 'DONE',
    chain: 'TRX',
    finalTime: NOW_S - 2 * 86_400 + 60,
    blockNumber: '61234567',
    txid: '3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f',
  },
]);

const savedAddresses = typed<'funding.savedAddresses'>([
  {
    currency: 'USDT',
    chain: 'TRX',
    address: TRX_ADDRESS,
    name: 'OTC desk (TRC20)',
    verified: true,
    previousWithdrawals: 4,
  },
  {
    currency: 'USDT',
    chain: 'ETH',
    address: ETH_ADDRESS,
    name: 'OTC desk (ERC20)',
    verified: true,
    previousWithdrawals: 0,
  },
  {
    currency: 'USDT',
    chain: 'TON',
    address: 'EQD4FPq-PRDieyQKkizFTRtSDyucUIqrj0v_zXJmqaDp6_0t',
    name: 'Exchange B (TON)',
    tag: '7734001',
    verified: true,
    previousWithdrawals: 1,
  },
  {
    currency: 'USDT',
    chain: 'TRX',
    address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
    name: 'New supplier (unverified)',
    verified: false,
    previousWithdrawals: 0,
  },
]);

// --- sub-accounts, transfers, approvals, activity -----------------------------------------------

const subAccounts = SUBS.map((s, i) => ({
  ...s,
  email: 'treasury@example.com',
  state: i === 2 ? ('frozen' as const) : ('normal' as const),
  type: 'normal' as const,
  createdAt: NOW_S - (200 - i * 30) * 86_400,
}));

const NEW_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
/** The core's summary of a withdrawal ("Withdraw 25,000 USDT to TQn9Y2khEsLJ…Dow5KcbLSE (TRX)"). */
const withdrawSummary = (amount: string, address: string) =>
  `Withdraw ${formatMoney(amount, 'USDT')} to ${address.slice(0, 12)}…${address.slice(-8)} (TRX)`;
const aboveRule = (amount: string) => `Worth ${formatMoney(amount, 'USDT')}, above ${formatMoney('10000', 'USDT')}.`;

const approvals = typed<'approvals.list'>({
  approvals: [
    {
      id: 'ap_d4f9a1c2',
      profileId: 'sb',
      kind: 'withdrawal',
      state: 'pending',
      currency: 'USDT',
      amount: '25000',
      usdtValue: '25000',
      destination: `${TRX_ADDRESS} on TRX`,
      to: { chain: 'TRX', address: TRX_ADDRESS },
      summary: withdrawSummary('25000', TRX_ADDRESS),
      reasons: [aboveRule('25000')],
      makerId: 'op_2',
      makerName: 'Maya Maker',
      createdAt: SCENE_NOW - 12 * MIN,
      expiresAt: SCENE_NOW + 23 * HOUR + 48 * MIN,
      origin: 'screen',
    },
    {
      id: 'ap_5e6f7a8b',
      profileId: 'sb',
      kind: 'withdrawal',
      state: 'pending',
      currency: 'USDT',
      amount: '18500',
      usdtValue: '18500',
      destination: `${NEW_ADDRESS} on TRX`,
      to: { chain: 'TRX', address: NEW_ADDRESS },
      newDestination: true,
      summary: withdrawSummary('18500', NEW_ADDRESS),
      reasons: [aboveRule('18500'), 'A destination this profile never sent to.'],
      makerId: 'op_1',
      makerName: 'Ada Admin',
      createdAt: SCENE_NOW - 7 * MIN,
      expiresAt: SCENE_NOW + 23 * HOUR + 53 * MIN,
      origin: 'screen',
    },
    {
      id: 'ap_77b01e5f',
      profileId: 'sb',
      kind: 'push',
      state: 'pending',
      currency: 'BTC',
      amount: '0.75',
      usdtValue: '48730.875',
      destination: 'UID 10000912',
      to: { uid: '10000912' },
      summary: `UID transfer of ${formatMoney('0.75', 'BTC')} to UID 10000912`,
      reasons: ['Every UID transfer needs an approver.'],
      makerId: 'op_2',
      makerName: 'Maya Maker',
      createdAt: SCENE_NOW - 4 * MIN,
      expiresAt: SCENE_NOW + 23 * HOUR + 56 * MIN,
      origin: 'screen',
    },
    {
      id: 'ap_1a2b3c4d',
      profileId: 'sb',
      kind: 'withdrawal',
      state: 'sent',
      currency: 'USDT',
      amount: '12000',
      usdtValue: '12000',
      destination: `${TRX_ADDRESS} on TRX`,
      to: { chain: 'TRX', address: TRX_ADDRESS },
      summary: withdrawSummary('12000', TRX_ADDRESS),
      reasons: [aboveRule('12000')],
      makerId: 'op_2',
      makerName: 'Maya Maker',
      createdAt: SCENE_NOW - 5 * HOUR,
      expiresAt: SCENE_NOW + 19 * HOUR,
      decidedBy: 'Ari Approver',
      decidedAt: SCENE_NOW - 4 * HOUR,
      reason: 'Invoice 4411 checked with the desk',
    },
    {
      id: 'ap_9c0d1e2f',
      profileId: 'sb',
      kind: 'withdrawal',
      state: 'cancelled',
      currency: 'USDT',
      amount: '15000',
      usdtValue: '15000',
      destination: `${TRX_ADDRESS} on TRX`,
      to: { chain: 'TRX', address: TRX_ADDRESS },
      summary: withdrawSummary('15000', TRX_ADDRESS),
      reasons: [aboveRule('15000')],
      makerId: 'op_2',
      makerName: 'Maya Maker',
      createdAt: SCENE_NOW - 3 * HOUR,
      expiresAt: SCENE_NOW + 21 * HOUR,
      decidedBy: 'Maya Maker',
      decidedAt: SCENE_NOW - 2 * HOUR,
      reason: 'Wrong amount, prepared again',
    },
  ],
});

const movement = (m: Partial<Out<'activity.movement'>> & { id: string }): Out<'activity.movement'> => ({
  profileId: 'sb',
  kind: 'withdrawal',
  state: 'done',
  clientId: `td-${m.id}`,
  currency: 'USDT',
  amount: '2500',
  params: { chain: 'TRX', address: TRX_ADDRESS },
  attempts: 1,
  createdAt: SCENE_NOW - 50 * MIN,
  updatedAt: SCENE_NOW - 49 * MIN,
  operator: 'Maya Maker',
  ...m,
});
const movements = [
  movement({ id: 'm-0003', platformId: 'w20000003', platformStatus: 'EXTPEND', clientId: 'td-wd-0003' }),
  movement({
    id: 'm-0002',
    kind: 'subAccountTransfer',
    currency: 'USDT',
    amount: '5000.5',
    params: { sub_account: String(SUBS[1].userId), direction: 'to', sub_account_type: 'spot' },
    createdAt: SCENE_NOW - 3 * HOUR,
    updatedAt: SCENE_NOW - 3 * HOUR,
  }),
  movement({
    id: 'm-0001',
    kind: 'spotOrder',
    currency: 'BTC',
    amount: '0.1',
    params: { currency_pair: 'BTC_USDT', side: 'buy', price: SCENE_LAST },
    platformId: '7711990',
    createdAt: SCENE_NOW - 3 * HOUR,
    updatedAt: SCENE_NOW - 3 * HOUR,
  }),
];

const auditLog = typed<'activity.auditLog'>([
  {
    seq: 41,
    at: SCENE_NOW - 12 * MIN,
    profileId: 'sb',
    action: 'approvals.request',
    account: 'main',
    params: '{"currency":"USDT","amount":"25000","chain":"TRX"}',
    outcome: 'ok',
    label: '',
    requestId: '',
    operator: 'Maya Maker',
    hash: 'f3a1',
  },
  {
    seq: 40,
    at: SCENE_NOW - 3 * HOUR,
    profileId: 'sb',
    action: 'POST /wallet/sub_account_transfers',
    account: 'main',
    params: '{"currency":"USDT","amount":"5000.5","sub_account":"10000003","direction":"to"}',
    outcome: 'ok',
    label: '',
    requestId: 'r-7c1d',
    operator: 'Maya Maker',
    hash: 'e2b0',
  },
]);

const transferHistory = typed<'transfers.history'>({
  records: [
    {
      id: 'tr-8812',
      time: SCENE_NOW - 3 * HOUR,
      kind: 'mainSub',
      from: 'Main spot',
      to: `${SUBS[1].loginName} (UID ${SUBS[1].userId}) spot`,
      currency: 'USDT',
      amount: '5000.5',
      state: 'done',
      stateText: 'Done',
      clientOrderId: 'td-tr-0002',
      source: 'platform',
    },
  ],
});

const batches = typed<'bulk.list'>({
  batches: [
    {
      id: 'b-0007',
      profileId: 'sb',
      name: 'payouts-2026-11-27.csv',
      kind: 'csv',
      state: 'finished',
      createdAt: SCENE_NOW - 2 * HOUR,
      startedAt: SCENE_NOW - 2 * HOUR,
      finishedAt: SCENE_NOW - 2 * HOUR + 4 * MIN,
      counts: { total: 3, pending: 0, sending: 0, checking: 0, done: 3, failed: 0, cancelled: 0 },
    },
  ],
});

const profile = {
  id: 'sb',
  kind: 'sandbox' as const,
  name: 'Local sandbox',
  baseUrl: 'http://127.0.0.1:18080/api/v4',
  keyMask: 'a1b2…9f0e',
  userId: MAIN_UID,
  active: true,
  managed: true,
};

/** The scene: every read a screen makes on a working day. Writes are left to each test. */
export const sceneAnswers = (): Answers => ({
  'app.info': () =>
    typed<'app.info'>({ name: 'Treasury Desk', version: '0.1.0', shell: 'chromium', platform: 'linux' }),
  'app.lockState': () => typed<'app.lockState'>({ state: 'unlocked' }),
  'app.notificationSettings': () =>
    typed<'app.notificationSettings'>({
      settings: {
        enabled: true,
        deposits: true,
        withdrawals: true,
        pushes: true,
        mutedProfiles: [],
        minAmounts: { USDT: '100', BTC: '0.01' },
      },
      available: true,
    }),
  'operators.current': () =>
    typed<'operators.current'>({
      setupNeeded: false,
      operator: {
        id: 'op_1',
        name: 'Ada Admin',
        role: 'admin',
        createdAt: SCENE_NOW - 90 * DAY,
        createdBy: '',
        lastSignInAt: SCENE_NOW - HOUR,
      },
      lock: { state: 'unlocked' },
    }),
  'operators.list': () =>
    typed<'operators.list'>([
      { id: 'op_1', name: 'Ada Admin', role: 'admin', createdAt: SCENE_NOW - 90 * DAY, createdBy: '' },
      {
        id: 'op_2',
        name: 'Maya Maker',
        role: 'maker',
        createdAt: SCENE_NOW - 60 * DAY,
        createdBy: 'Ada Admin',
        lastSignInAt: SCENE_NOW - 15 * MIN,
      },
      {
        id: 'op_3',
        name: 'Ari Approver',
        role: 'approver',
        createdAt: SCENE_NOW - 60 * DAY,
        createdBy: 'Ada Admin',
        lastSignInAt: SCENE_NOW - 4 * HOUR,
      },
    ]),
  'profiles.list': () => typed<'profiles.list'>([profile]),
  'profiles.status': () =>
    typed<'profiles.status'>({
      profileId: 'sb',
      state: 'connected',
      clockOffsetMs: 42,
      clockWarning: false,
      limiter: { queued: 0, headroom: 0.94, buckets: [] },
      unresolvedMovements: 0,
      checkedAt: SCENE_NOW - 30_000,
    }),
  'profiles.keychainStatus': () => ({ available: true, backend: 'Secret Service' }),
  'balances.total': () =>
    typed<'balances.total'>({
      total: { amount: '621087.06', currency: 'USDT' },
      details: [
        { account: 'spot', amount: '561122.3', currency: 'USDT' },
        { account: 'futures', amount: '20000', currency: 'USDT', unrealisedPnl: '-125.5' },
        { account: 'margin', amount: '6497.45', currency: 'USDT', borrowed: '0' },
      ],
      fetchedAt: NOW_S - 20,
    }),
  'balances.totalHistory': () =>
    typed<'balances.totalHistory'>(
      Array.from({ length: 12 }, (_, i) => ({
        time: NOW_S - (11 - i) * 3600,
        amount: `${618_000 + i * 281}.${i}`,
        currency: 'USDT',
      })),
    ),
  'balances.spot': () => spot,
  'balances.firm': () => firm,
  'balances.firmHistory': () =>
    typed<'balances.firmHistory'>(
      Array.from({ length: 12 }, (_, i) => ({
        time: NOW_S - (11 - i) * 3600,
        amount: `${619_400 + i * 140}.5`,
        currency: 'USDT',
      })),
    ),
  'balances.smallBalances': () =>
    typed<'balances.smallBalances'>([
      { currency: 'SHIB', available: '150000', estimatedBtc: '0.00004712', convertibleToGt: '0.364' },
      { currency: 'PEPE', available: '300000', estimatedBtc: '0.00005003', convertibleToGt: '0.3866' },
    ]),
  'balances.smallBalanceHistory': () => [],
  'funding.withdrawRules': () => withdrawRules,
  'funding.chains': ({ currency }) =>
    typed<'funding.chains'>(
      currency === 'BTC'
        ? [
            {
              chain: 'BTC',
              nameEn: 'Bitcoin',
              nameCn: '比特币',
              disabled: false,
              depositDisabled: false,
              withdrawDisabled: false,
              decimals: 8,
              usesMemo: false,
            },
          ]
        : [
            {
              chain: 'TRX',
              nameEn: 'Tron (TRC20)',
              nameCn: '',
              disabled: false,
              depositDisabled: false,
              withdrawDisabled: false,
              decimals: 6,
              usesMemo: false,
            },
            {
              chain: 'ETH',
              nameEn: 'Ethereum (ERC20)',
              nameCn: '',
              disabled: false,
              depositDisabled: false,
              withdrawDisabled: false,
              decimals: 6,
              usesMemo: false,
            },
            {
              chain: 'TON',
              nameEn: 'The Open Network',
              nameCn: '',
              disabled: false,
              depositDisabled: false,
              withdrawDisabled: false,
              decimals: 6,
              usesMemo: true,
            },
          ],
    ),
  'funding.depositAddress': ({ currency }) =>
    typed<'funding.depositAddress'>({
      currency,
      address: TRX_ADDRESS,
      minDepositAmount: '1',
      chains: [{ chain: 'TRX', address: TRX_ADDRESS, obtainFailed: false, minConfirmations: 20 }],
    }),
  'funding.deposits': () => deposits,
  'funding.withdrawals': () => withdrawals,
  'funding.savedAddresses': ({ currency }) => savedAddresses.filter((a) => a.currency === currency),
  'funding.reviewPolicy': () => typed<'funding.reviewPolicy'>({ typedConfirmAbove: { USDT: '1000', BTC: '0.05' } }),
  'funding.pushes': ({ transactionType }) =>
    typed<'funding.pushes'>(
      transactionType === 'withdraw'
        ? [
            {
              id: 'p-501',
              pushUid: MAIN_UID,
              receiveUid: 10_000_912,
              currency: 'USDT',
              amount: '750.5',
              createTime: NOW_S - 6 * 3600,
              status: 'RECEIVED',
              transactionType: 'withdraw',
            },
          ]
        : [],
    ),
  'transfers.available': ({ currency }) =>
    typed<'transfers.available'>({ available: currency === 'BTC' ? '2.35' : '243310.25' }),
  'transfers.history': () => transferHistory,
  'subAccounts.list': () => typed<'subAccounts.list'>({ accounts: subAccounts }),
  'subAccounts.balances': () =>
    typed<'subAccounts.balances'>({
      balances: [
        { userId: SUBS[0].userId, spot: { USDT: '10000', BTC: '0.2' } },
        { userId: SUBS[1].userId, spot: { USDT: '2000', ETH: '1.5' } },
        { userId: SUBS[2].userId, spot: { USDT: '750.5' } },
      ],
    }),
  'subAccounts.unifiedMode': () =>
    typed<'subAccounts.unifiedMode'>({
      modes: SUBS.map((s) => ({ userId: s.userId, isUnified: false, mode: 'classic' })),
    }),
  'trade.pairs': () => pairs,
  'trade.tickers': () => tickers,
  'trade.settings': () =>
    typed<'trade.settings'>({
      priceDeviationPercent: '5',
      maxNotional: '100000',
      confirmOrders: true,
      shortcuts: false,
      favourites: ['BTC_USDT', 'ETH_USDT'],
    }),
  'trade.watchMarket': () => typed<'trade.watchMarket'>({ book, ticker: tickers[0] ?? null, trades, candles }),
  'trade.unwatchMarket': () => ({}),
  'trade.bookSnapshot': () => book,
  'trade.account': ({ pair }) =>
    typed<'trade.account'>({
      pair,
      base: { currency: pair.split('_')[0] ?? 'BTC', available: '2.35', locked: '0.15' },
      quote: { currency: 'USDT', available: '243310.25', locked: '16125' },
    }),
  'trade.terms': ({ pair }) => typed<'trade.terms'>({ pair, makerFee: '0.002', takerFee: '0.002', stpGroupId: null }),
  'trade.openOrders': () => openOrders,
  'trade.orderHistory': () => orderHistory,
  'trade.myTrades': () => myTrades,
  'trade.triggerOrders': ({ status }) =>
    typed<'trade.triggerOrders'>(
      status === 'open'
        ? [
            {
              id: '880011',
              pair: 'BTC_USDT',
              rule: '<=',
              triggerPrice: '62000.0',
              side: 'sell',
              type: 'market',
              price: '0',
              amount: '0.5',
              timeInForce: 'ioc',
              text: 't-stop1',
              status: 'open',
              reason: '',
              firedOrderId: null,
              createTimeMs: SCENE_NOW - 2 * HOUR,
              expiresAtMs: SCENE_NOW + 6 * DAY,
              finishTimeMs: null,
            },
          ]
        : [],
    ),
  'activity.movements': ({ state }) => (state === 'unknown' ? [] : movements),
  'activity.auditLog': () => auditLog,
  // A desk working alone (the visual and number tests see the solo frame and Settings → Team).
  'team.status': () => typed<'team.status'>({ mode: 'solo', blocked: [], operators: [], enrolments: [] }),
  'activity.auditIntegrity': () =>
    typed<'activity.auditIntegrity'>({
      ok: true,
      checkedAt: SCENE_NOW - 8 * HOUR,
      entries: auditLog.length,
      signingKey: 'SHA256:q7Kd/VbXhN2mTfLw3aJ0cPzR5eYuGi8oHs1xWnEb4Ck',
    }),
  'activity.historyStatus': () =>
    typed<'activity.historyStatus'>({
      syncId: 's-1',
      state: 'done',
      kinds: ['deposits', 'withdrawals', 'subAccountTransfers', 'pushes'],
      from: NOW_S - 90 * 86_400,
      to: NOW_S - 60,
      windowsDone: 3,
      windowsTotal: 3,
      requests: 14,
      records: 6,
      startedAt: SCENE_NOW - 10 * MIN,
      finishedAt: SCENE_NOW - 9 * MIN,
    }),
  'activity.history': () =>
    typed<'activity.history'>({
      records: [
        ...deposits.map((d) => ({ kind: 'deposits' as const, id: d.id, time: d.time, data: { ...d } })),
        ...withdrawals.map((w) => ({ kind: 'withdrawals' as const, id: w.id, time: w.time, data: { ...w } })),
      ],
      total: 4,
      complete: true,
    }),
  'policies.get': () =>
    typed<'policies.get'>({
      profileId: 'sb',
      policy: {
        limits: { USDT: { perTransaction: '50000', rolling24h: '250000' } },
        usdtLimits: { perTransaction: '100000' },
        allowlist: { required: false, coolingOffHours: 24, entries: [] },
        approval: { aboveUsdt: '10000', newDestination: true, anyPush: true, expiresHours: 24 },
      },
      updatedAt: SCENE_NOW - 7 * DAY,
      updatedBy: 'Ada Admin',
    }),
  'approvals.list': () => approvals,
  'approvals.fourEyes': () =>
    typed<'approvals.fourEyes'>({
      inForce: false,
      administrators: 1,
      reason: 'This desk has one administrator: a control change takes effect without a second one.',
      operatorCoolingOffHours: 24,
    }),
  'bulk.list': () => batches,
});
