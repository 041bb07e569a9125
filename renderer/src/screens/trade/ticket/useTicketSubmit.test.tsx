import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DuplicateGuard, type TicketDraft } from '../../../../../shared/trade/ticket';
import { type TicketSubmitOptions, useTicketSubmit } from './useTicketSubmit';

const draft: TicketDraft = {
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '65000',
  amount: '0.01',
  timeInForce: 'gtc',
};

const setup = (over: Partial<TicketSubmitOptions<TicketDraft, 'price' | 'amount'>> = {}) => {
  const send = vi.fn();
  const options: TicketSubmitOptions<TicketDraft, 'price' | 'amount'> = {
    errors: {},
    blocked: false,
    guard: new DuplicateGuard(),
    orderOf: (d) => d,
    confirmEvery: false,
    warningsOf: () => [],
    send,
    ...over,
  };
  const hook = renderHook((o: typeof options) => useTicketSubmit(o), { initialProps: options });
  return { hook, send, options };
};

describe('useTicketSubmit', () => {
  it('shows a field error once the field is typed in or after a submit, and sends nothing while one fails', () => {
    const { hook, send } = setup({ errors: { price: 'Enter a price.', amount: 'Too small.' } });
    expect(hook.result.current.shown('price', '')).toBeUndefined();
    expect(hook.result.current.shown('amount', '0.0')).toBe('Too small.');
    act(() => hook.result.current.submit(draft));
    expect(hook.result.current.shown('price', '')).toBe('Enter a price.');
    expect(send).not.toHaveBeenCalled();
    expect(hook.result.current.review).toBeUndefined();
  });

  it('sends nothing while blocked', () => {
    const { hook, send } = setup({ blocked: true });
    act(() => hook.result.current.submit(draft));
    expect(send).not.toHaveBeenCalled();
  });

  it('sends at once when nothing warns, and the guard remembers the order', () => {
    const guard = new DuplicateGuard();
    const { hook, send } = setup({ guard });
    act(() => hook.result.current.submit(draft));
    expect(send).toHaveBeenCalledWith(draft);
    expect(guard.isDuplicate(draft)).toBe(true);
  });

  it('asks first when something warns, passing on whether the order is a duplicate; confirming sends once', () => {
    const guard = new DuplicateGuard();
    guard.remember(draft);
    const warningsOf = vi.fn((_d: TicketDraft, duplicate: boolean) =>
      duplicate ? [{ kind: 'duplicate', message: 'Again?' }] : [],
    );
    const { hook, send } = setup({ guard, warningsOf });
    act(() => hook.result.current.submit(draft));
    expect(warningsOf).toHaveBeenCalledWith(draft, true);
    expect(hook.result.current.review).toEqual({ draft, warnings: [{ kind: 'duplicate', message: 'Again?' }] });
    expect(send).not.toHaveBeenCalled();
    act(() => hook.result.current.confirmReview());
    expect(send).toHaveBeenCalledTimes(1);
    expect(hook.result.current.review).toBeUndefined();
  });

  it('asks first for every order when the setting says so; cancelling sends nothing', () => {
    const { hook, send } = setup({ confirmEvery: true });
    act(() => hook.result.current.submit(draft));
    expect(hook.result.current.review).toEqual({ draft, warnings: [] });
    act(() => hook.result.current.cancelReview());
    expect(hook.result.current.review).toBeUndefined();
    expect(send).not.toHaveBeenCalled();
  });

  it('remembers the order a draft places, not the draft itself (a trigger)', () => {
    const guard = new DuplicateGuard();
    const trigger = { ...draft, triggerPrice: '60000' };
    const hook = renderHook(() =>
      useTicketSubmit<typeof trigger, 'price'>({
        errors: {},
        blocked: false,
        guard,
        orderOf: ({ triggerPrice: _, ...order }) => order,
        confirmEvery: false,
        warningsOf: () => [],
        send: () => undefined,
      }),
    );
    act(() => hook.result.current.submit(trigger));
    expect(guard.isDuplicate(draft)).toBe(true);
  });
});
