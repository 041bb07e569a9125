import { describe, expect, it } from 'vitest';
import { valuationIn } from './valuation';

const tickers = [
  { pair: 'BTC_USDT', last: '50000' },
  { pair: 'ETH_USDT', last: '2500' },
  { pair: 'ETH_BTC', last: '0.051' },
  // Never traded: priced at the middle of its book.
  { pair: 'GT_USDT', last: '', highestBid: '7.9', lowestAsk: '8.1' },
  // Only one side: no price.
  { pair: 'DUST_USDT', last: '', highestBid: '0.0001' },
];

describe('valuationIn', () => {
  it('values USDT in BTC through BTC_USDT turned round (the firm total no longer leaves USDT out)', () => {
    const value = valuationIn('BTC', tickers)('USDT');
    expect(value?.price.toFixed()).toBe('0.00002');
    expect(value?.route).toBe('BTC_USDT');
  });

  it('prefers a direct pair, then goes through USDT', () => {
    const inBtc = valuationIn('BTC', tickers);
    expect(inBtc('ETH')).toEqual({ price: expect.anything(), route: 'ETH_BTC' });
    expect(inBtc('ETH')?.price.toFixed()).toBe('0.051');
    const gt = inBtc('GT');
    expect(gt?.route).toBe('GT_USDT mid of the book and BTC_USDT via USDT');
    expect(gt?.price.toFixed()).toBe('0.00016');
  });

  it('prices a pair without a last trade at the mid of its book, and one side alone not at all', () => {
    const inUsdt = valuationIn('USDT', tickers);
    expect(inUsdt('GT')?.price.toFixed()).toBe('8');
    expect(inUsdt('DUST')).toBeUndefined();
    expect(inUsdt('NOPE')).toBeUndefined();
  });

  it('values the quote itself at 1 and takes USD as USDT', () => {
    expect(valuationIn('USDT', tickers)('USDT')).toEqual({ price: expect.anything(), route: '' });
    expect(valuationIn('USD', tickers)('BTC')?.price.toFixed()).toBe('50000');
    expect(valuationIn('USD', tickers)('USDT')?.price.toFixed()).toBe('1');
  });
});
