import { describe, expect, it } from 'vitest';
import { formatScaled, parseScaled } from './decimal';
import { type IncomingOrder, MatchingEngine } from './engine';

let nextId = 1;
function order(partial: Partial<IncomingOrder> & Pick<IncomingOrder, 'side' | 'price' | 'amount'>): IncomingOrder {
  return {
    id: String(nextId++),
    owner: 1,
    type: 'limit',
    timeInForce: 'gtc',
    stpGroup: 0,
    stpAct: 'cn',
    ...partial,
  };
}

describe('price-time priority', () => {
  it("fills the spec's example in the order A, C, B", () => {
    const e = new MatchingEngine();
    e.place(order({ id: 'A', side: 'sell', price: 100, amount: 1n }));
    e.place(order({ id: 'B', side: 'sell', price: 102, amount: 1n }));
    e.place(order({ id: 'C', side: 'sell', price: 100, amount: 1n }));
    const r = e.place(order({ owner: 2, side: 'buy', price: 102, amount: 3n }));
    expect(r.fills.map((f) => [f.makerId, f.price])).toEqual([
      ['A', 100],
      ['C', 100],
      ['B', 102],
    ]);
    expect(r.outcome).toBe('filled');
    expect(r.filledQuote).toBe(302n);
    expect(e.restingCount).toBe(0);
  });

  it('trades at the maker price and leaves the rest of a partially filled maker in place', () => {
    const e = new MatchingEngine();
    e.place(order({ id: 'bid1', side: 'buy', price: 50, amount: 10n }));
    e.place(order({ id: 'bid2', side: 'buy', price: 50, amount: 5n }));
    const r = e.place(order({ side: 'sell', price: 40, amount: 4n }));
    expect(r.fills).toEqual([{ makerId: 'bid1', makerOwner: 1, price: 50, lots: 4n, quote: 200n, makerLeft: 6n }]);
    expect(e.depth('buy', 10)).toEqual([{ price: 50, lots: 11n }]);
    // bid1 keeps its priority over bid2
    const r2 = e.place(order({ side: 'sell', price: 50, amount: 7n }));
    expect(r2.fills.map((f) => [f.makerId, f.lots])).toEqual([
      ['bid1', 6n],
      ['bid2', 1n],
    ]);
  });

  it('keeps levels sorted across thousands of prices', () => {
    const e = new MatchingEngine();
    const prices = Array.from({ length: 3000 }, (_, i) => 1000 + ((i * 7919) % 3000));
    for (const p of prices) e.place(order({ side: 'sell', price: p, amount: 1n }));
    for (const p of prices) e.place(order({ side: 'buy', price: p - 3000, amount: 1n }));
    const asks = e.depth('sell', 3000).map((l) => l.price);
    const bids = e.depth('buy', 3000).map((l) => l.price);
    expect(asks).toEqual([...asks].sort((a, b) => a - b));
    expect(bids).toEqual([...bids].sort((a, b) => b - a));
    expect(asks[0]).toBe(1000);
    expect(bids[0]).toBe(999);
  });
});

describe('time in force', () => {
  function bookWithAsk(amount = 5n) {
    const e = new MatchingEngine();
    e.place(order({ id: 'ask', side: 'sell', price: 100, amount }));
    return e;
  }

  it('gtc rests the unfilled remainder', () => {
    const e = bookWithAsk();
    const r = e.place(order({ id: 'gtc', side: 'buy', price: 100, amount: 8n }));
    expect(r.outcome).toBe('open');
    expect(r.left).toBe(3n);
    expect(e.get('gtc')?.left).toBe(3n);
  });

  it('ioc cancels the remainder', () => {
    const e = bookWithAsk();
    const r = e.place(order({ id: 'ioc', side: 'buy', price: 100, amount: 8n, timeInForce: 'ioc' }));
    expect(r.outcome).toBe('ioc');
    expect(r.filledLots).toBe(5n);
    expect(e.get('ioc')).toBeUndefined();
  });

  it('poc never takes: it is cancelled when it would cross and rests otherwise', () => {
    const e = bookWithAsk();
    const crossing = e.place(order({ side: 'buy', price: 100, amount: 1n, timeInForce: 'poc' }));
    expect(crossing.outcome).toBe('poc');
    expect(crossing.fills).toEqual([]);
    expect(e.get('ask')?.left).toBe(5n);
    const resting = e.place(order({ id: 'maker', side: 'buy', price: 99, amount: 1n, timeInForce: 'poc' }));
    expect(resting.outcome).toBe('open');
    expect(e.bestBid()).toBe(99);
  });

  it('fok fills completely or does nothing', () => {
    const e = bookWithAsk();
    const tooBig = e.place(order({ side: 'buy', price: 100, amount: 6n, timeInForce: 'fok' }));
    expect(tooBig.outcome).toBe('fok');
    expect(tooBig.fills).toEqual([]);
    expect(e.get('ask')?.left).toBe(5n);
    const fits = e.place(order({ side: 'buy', price: 100, amount: 5n, timeInForce: 'fok' }));
    expect(fits.outcome).toBe('filled');
    expect(fits.filledLots).toBe(5n);
  });

  it('fok respects the limit price', () => {
    const e = bookWithAsk();
    e.place(order({ side: 'sell', price: 101, amount: 5n }));
    expect(e.place(order({ side: 'buy', price: 100, amount: 6n, timeInForce: 'fok' })).outcome).toBe('fok');
    expect(e.place(order({ side: 'buy', price: 101, amount: 6n, timeInForce: 'fok' })).outcome).toBe('filled');
  });
});

describe('market orders', () => {
  it('a market buy spends a quote budget across levels and stops when a lot is unaffordable', () => {
    const e = new MatchingEngine();
    e.place(order({ side: 'sell', price: 100, amount: 2n }));
    e.place(order({ side: 'sell', price: 110, amount: 5n }));
    // budget 450: 2 lots at 100 (200), then 2 lots at 110 (220), 30 left < 110
    const r = e.place(order({ side: 'buy', type: 'market', price: 0, amount: 450n, timeInForce: 'ioc' }));
    expect(r.fills.map((f) => [f.price, f.lots])).toEqual([
      [100, 2n],
      [110, 2n],
    ]);
    expect(r.outcome).toBe('filled');
    expect(r.left).toBe(30n);
    expect(r.filledQuote).toBe(420n);
  });

  it('a market sell takes bids down to any price and ends ioc when the book runs out', () => {
    const e = new MatchingEngine();
    e.place(order({ side: 'buy', price: 100, amount: 1n }));
    e.place(order({ side: 'buy', price: 1, amount: 1n }));
    const r = e.place(order({ side: 'sell', type: 'market', price: 0, amount: 3n, timeInForce: 'ioc' }));
    expect(r.filledLots).toBe(2n);
    expect(r.left).toBe(1n);
    expect(r.outcome).toBe('ioc');
  });

  it('a market fok buy that the book cannot absorb does nothing', () => {
    const e = new MatchingEngine();
    e.place(order({ side: 'sell', price: 100, amount: 2n }));
    const r = e.place(order({ side: 'buy', type: 'market', price: 0, amount: 1000n, timeInForce: 'fok' }));
    expect(r.outcome).toBe('fok');
    expect(e.bestAsk()).toBe(100);
  });
});

describe('amend', () => {
  function threeBids() {
    const e = new MatchingEngine();
    e.place(order({ id: 'x', side: 'buy', price: 100, amount: 5n }));
    e.place(order({ id: 'y', side: 'buy', price: 100, amount: 5n }));
    return e;
  }
  const gtc = { timeInForce: 'gtc' as const, stpAct: 'cn' as const };

  it('reducing the amount keeps priority', () => {
    const e = threeBids();
    expect(e.amend('x', 100, 3n, gtc)?.kept).toBe(true);
    expect([...e.restingOrders('buy')].map((o) => [o.id, o.left])).toEqual([
      ['x', 3n],
      ['y', 5n],
    ]);
    expect(e.depth('buy', 1)).toEqual([{ price: 100, lots: 8n }]);
  });

  it('increasing the amount sends the order to the back of its level', () => {
    const e = threeBids();
    expect(e.amend('x', 100, 6n, gtc)?.kept).toBe(false);
    expect([...e.restingOrders('buy')].map((o) => o.id)).toEqual(['y', 'x']);
  });

  it('a price change moves the order and can trade', () => {
    const e = threeBids();
    e.place(order({ id: 'ask', side: 'sell', price: 101, amount: 2n }));
    const amended = e.amend('y', 101, 5n, gtc);
    expect(amended?.kept).toBe(false);
    expect(amended?.result.fills.map((f) => f.makerId)).toEqual(['ask']);
    expect(e.get('y')?.left).toBe(3n);
    expect(e.bestBid()).toBe(101);
  });

  it('returns undefined for an order that is not resting', () => {
    expect(new MatchingEngine().amend('nope', 1, 1n, gtc)).toBeUndefined();
  });
});

describe('self-trade prevention (taker strategy)', () => {
  const GROUP = 7;
  function book() {
    const e = new MatchingEngine();
    e.place(order({ id: 'other', owner: 9, side: 'sell', price: 100, amount: 1n }));
    e.place(order({ id: 'mine', owner: 1, side: 'sell', price: 100, amount: 1n, stpGroup: GROUP }));
    e.place(order({ id: 'later', owner: 9, side: 'sell', price: 101, amount: 1n }));
    return e;
  }

  it('cn: the taker stops with finish_as stp, the maker stays open, earlier fills stand', () => {
    const e = book();
    const r = e.place(order({ owner: 2, side: 'buy', price: 101, amount: 3n, stpGroup: GROUP, stpAct: 'cn' }));
    expect(r.outcome).toBe('stp');
    expect(r.fills.map((f) => f.makerId)).toEqual(['other']);
    expect(e.get('mine')?.left).toBe(1n);
    expect(r.left).toBe(2n);
  });

  it('co: the maker is cancelled and the taker continues', () => {
    const e = book();
    const r = e.place(order({ owner: 2, side: 'buy', price: 101, amount: 3n, stpGroup: GROUP, stpAct: 'co' }));
    expect(r.stpCancelled.map((o) => o.id)).toEqual(['mine']);
    expect(r.fills.map((f) => f.makerId)).toEqual(['other', 'later']);
    expect(r.outcome).toBe('open');
    expect(e.get('mine')).toBeUndefined();
  });

  it('cb: both are cancelled', () => {
    const e = book();
    const r = e.place(order({ owner: 2, side: 'buy', price: 101, amount: 3n, stpGroup: GROUP, stpAct: 'cb' }));
    expect(r.outcome).toBe('stp');
    expect(r.stpCancelled.map((o) => o.id)).toEqual(['mine']);
    expect(e.get('mine')).toBeUndefined();
    expect(e.get('later')?.left).toBe(1n);
  });

  it('different or no groups trade normally', () => {
    const e = book();
    const r = e.place(order({ owner: 2, side: 'buy', price: 101, amount: 3n, stpGroup: GROUP + 1 }));
    expect(r.fills.map((f) => f.makerId)).toEqual(['other', 'mine', 'later']);
    expect(r.outcome).toBe('filled');
  });

  it('fok counts what STP would leave fillable', () => {
    const e = book();
    const cn = e.place(order({ side: 'buy', price: 101, amount: 2n, timeInForce: 'fok', stpGroup: GROUP }));
    expect(cn.outcome).toBe('fok');
    expect(e.get('mine')).toBeDefined();
    const co = e.place(
      order({ side: 'buy', price: 101, amount: 2n, timeInForce: 'fok', stpGroup: GROUP, stpAct: 'co' }),
    );
    expect(co.outcome).toBe('filled');
    expect(co.fills.map((f) => f.makerId)).toEqual(['other', 'later']);
  });
});

describe('restore', () => {
  it('rebuilds priority from sequence numbers regardless of insertion order', () => {
    const e = new MatchingEngine();
    e.restore({ id: 'late', owner: 1, side: 'sell', price: 100, left: 1n, stpGroup: 0, seq: 20 });
    e.restore({ id: 'early', owner: 1, side: 'sell', price: 100, left: 1n, stpGroup: 0, seq: 10 });
    e.restore({ id: 'mid', owner: 1, side: 'sell', price: 100, left: 1n, stpGroup: 0, seq: 15 });
    expect([...e.restingOrders('sell')].map((o) => o.id)).toEqual(['early', 'mid', 'late']);
    e.place(order({ id: 'new', side: 'sell', price: 100, amount: 1n }));
    expect([...e.restingOrders('sell')].map((o) => o.id).at(-1)).toBe('new');
  });
});

describe('decimal edge', () => {
  it('parses exactly and rejects extra precision', () => {
    expect(parseScaled('65000.1', 2)).toBe(6500010n);
    expect(parseScaled('1.50', 1)).toBe(15n);
    expect(parseScaled('1.55', 1)).toBe('precision');
    expect(parseScaled('-1', 2)).toBe('format');
    expect(parseScaled('1e5', 2)).toBe('format');
    expect(formatScaled(6500010n, 2)).toBe('65000.1');
    expect(formatScaled(5n, 8)).toBe('0.00000005');
    expect(formatScaled(0n, 3)).toBe('0');
    expect(formatScaled(-1234n, 2)).toBe('-12.34');
  });
});
