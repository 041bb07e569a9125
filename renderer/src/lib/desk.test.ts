import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Desk } from '../../../shared/contract';
import { call, DeskCallError } from './desk';
import { isActing, useInFlight } from './inFlight';

const install = (desk: unknown) => {
  Object.defineProperty(window, 'desk', { value: desk, configurable: true });
};

afterEach(() => {
  Reflect.deleteProperty(window, 'desk');
  useInFlight.setState({ pending: [], actionsPending: 0, lastActionSettledAt: 0 });
});

describe('call()', () => {
  it('unwraps a successful result', async () => {
    const ping = vi.fn(async (input: { text: string }) => ({ ok: true, value: { text: input.text, receivedAt: 1 } }));
    install({ app: { ping } } as unknown as Desk);
    await expect(call('app.ping', { text: 'hi' })).resolves.toEqual({ text: 'hi', receivedAt: 1 });
    expect(ping).toHaveBeenCalledWith({ text: 'hi' });
  });

  it('throws a DeskCallError carrying the whole IpcError', async () => {
    const error = {
      code: 'PLATFORM',
      message: 'Not enough balance.',
      label: 'BALANCE_NOT_ENOUGH',
      requestId: 'req-7',
      advice: 'Transfer funds first.',
    } as const;
    install({ app: { ping: async () => ({ ok: false, error }) } });
    const thrown = await call('app.ping', { text: 'x' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(DeskCallError);
    const failure = thrown as DeskCallError;
    expect(failure.operation).toBe('app.ping');
    expect([failure.code, failure.label, failure.requestId, failure.advice]).toEqual([
      'PLATFORM',
      'BALANCE_NOT_ENOUGH',
      'req-7',
      'Transfer funds first.',
    ]);
  });

  it('a call made with a signal gets a name, and aborting the signal asks main to stop that call', async () => {
    let finish: (value: unknown) => void = () => {};
    const exportHistoryCsv = vi.fn(
      (_input: unknown, _options?: { callId?: string }) => new Promise((r) => (finish = r)),
    );
    const cancel = vi.fn();
    install({ activity: { exportHistoryCsv }, cancel });
    const stop = new AbortController();
    const input = {
      kinds: ['deposits' as const],
      from: 0,
      to: 1,
      exportId: '4f6c0b1e-2a7d-4c1a-9d55-0a5c3e9b7f10',
      timeZone: 'UTC' as const,
      suggestedName: 'a.csv',
    };
    const pending = call('activity.exportHistoryCsv', input, { signal: stop.signal });
    const callId = exportHistoryCsv.mock.calls[0]?.[1]?.callId;
    expect(callId).toEqual(expect.any(String));
    expect(cancel).not.toHaveBeenCalled();
    stop.abort();
    expect(cancel).toHaveBeenCalledWith(callId);
    // The call still ends with main's answer.
    finish({ ok: true, value: { cancelled: true } });
    await expect(pending).resolves.toEqual({ cancelled: true });
  });

  it('says clearly when there is no bridge or no such operation', async () => {
    await expect(call('app.ping', { text: 'x' })).rejects.toMatchObject({ code: 'INTERNAL' });
    install({ app: {} });
    await expect(call('app.ping', { text: 'x' })).rejects.toMatchObject({ code: 'UNKNOWN_OPERATION' });
  });

  it('counts the call as in flight until it settles; a background read does not hold the idle lock back', async () => {
    let finish: (value: unknown) => void = () => {};
    install({ app: { ping: () => new Promise((resolve) => (finish = resolve)) } });
    const pending = call('app.ping', { text: 'x' });
    expect(useInFlight.getState().pending).toEqual(['app.ping']);
    expect(isActing()).toBe(false);
    finish({ ok: true, value: { text: 'x', receivedAt: 0 } });
    await pending;
    expect(useInFlight.getState().pending).toEqual([]);
    // A background read is not the person's action: the idle timer is not reset by it.
    expect(useInFlight.getState().lastActionSettledAt).toBe(0);
  });

  it('records when an action the person started settles, even when it fails', async () => {
    install({ app: { ping: async () => ({ ok: false, error: { code: 'NETWORK', message: 'Timed out.' } }) } });
    const acting = call('app.ping', { text: 'x' }, { action: true });
    expect(isActing(), 'the idle lock waits for an action in flight').toBe(true);
    await expect(acting).rejects.toBeInstanceOf(DeskCallError);
    expect(isActing()).toBe(false);
    expect(useInFlight.getState().lastActionSettledAt).toBeGreaterThan(0);
  });
});
