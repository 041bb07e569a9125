import { describe, expect, it } from 'vitest';
import { draftProblems, EMPTY_DRAFT, sourceOf, toInput } from './routes';

describe('transfer routes', () => {
  it('takes funds from the main spot account for main → sub and from the sub-account for sub → main', () => {
    expect(sourceOf({ ...EMPTY_DRAFT, route: 'mainToSub', subUserId: '7' })).toEqual({
      owner: 'main',
      account: 'spot',
      currency: 'USDT',
    });
    expect(sourceOf({ ...EMPTY_DRAFT, route: 'subToMain', subUserId: '7', subType: 'futures' })).toEqual({
      owner: 7,
      account: 'futures',
      currency: 'USDT',
      settle: 'usdt',
    });
  });

  it('builds the sub → sub input and refuses the same account on both sides', () => {
    const draft = { ...EMPTY_DRAFT, route: 'subToSub' as const, fromUserId: '7', toUserId: '8', amount: '1.5' };
    expect(toInput(draft)).toEqual({
      kind: 'subSub',
      fromUserId: 7,
      fromType: 'spot',
      toUserId: 8,
      toType: 'spot',
      currency: 'USDT',
      amount: '1.5',
    });
    expect(draftProblems({ ...draft, toUserId: '7' }).toUserId).toBe('Choose a different destination.');
  });

  it('checks the settle rules of contract accounts before sending', () => {
    const own = { ...EMPTY_DRAFT, route: 'own' as const, from: 'spot' as const, to: 'futures' as const, amount: '1' };
    expect(draftProblems(own)).toEqual({});
    expect(draftProblems({ ...own, currency: 'BTC' }).currency).toContain('take USDT or POINT');
    expect(draftProblems({ ...own, to: 'delivery', settle: 'btc', currency: 'BTC' }).settle).toBe(
      'Delivery futures settle in USDT.',
    );
    expect(toInput(own)).toEqual({
      kind: 'own',
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      amount: '1',
      settle: 'usdt',
    });
  });
});
