/**
 * The example batch file the Bulk screen offers for download: the same text as
 * assets/batch-example.csv (a test keeps them equal). Embedded, so the built core needs no asset.
 */
export const BATCH_EXAMPLE_NAME = 'batch-example.csv';
export const BATCH_EXAMPLE_CSV = [
  'type,currency,amount,from,to,chain,memo,reference',
  'transfer,USDT,250,spot,sub:10002,,,top-up desk A',
  'transfer,USDT,"1,000",sub:10003,spot,,,sweep desk B',
  'transfer,USDT,40.5,sub:10002,sub:10003/futures,,,rebalance',
  'transfer,BTC,0.015,spot,margin:BTC_USDT,,,margin collateral',
  'transfer,USDT,500,spot,futures:usdt,,,futures margin',
  'push,USDT,75,,uid:2000001,,,invoice 2024-117',
  'withdrawal,USDT,120,,TXYZ1234567890abcdefghijklmnopqrs,TRX,,payout 0042',
]
  .join('\n')
  .concat('\n');
