/**
 * The connection's "degraded" level: the stream still brings the market while the platform's REST
 * answers fail. The status says so, with since when, instead of a green "Connected"; it is
 * connected again once REST answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import { withSandboxCore } from '../testing/core';

const desk = withSandboxCore({ sandbox: { market: 'on' } });

const state = async () => desk.value<{ state: string; degradedSince?: number }>('profiles.status', {});

describe('a connection whose REST requests fail while its stream is up', () => {
  it('is degraded since the first failure, and connected again when REST answers', async () => {
    // The market feed opens the stream.
    await desk.value('trade.watchMarket', { pair: 'BTC_USDT', candleInterval: '1m' });
    expect((await state()).state).toBe('connected');
    const before = Date.now();
    await control(desk.sandbox, '/faults', { rules: [{ path: '/api/v4/spot/accounts', kind: 'status_500' }] });
    await desk.call('balances.spot', {});
    await vi.waitFor(async () => expect((await state()).state).toBe('degraded'), { timeout: 10_000 });
    expect((await state()).degradedSince).toBeGreaterThanOrEqual(before);

    await control(desk.sandbox, '/faults', undefined, 'DELETE');
    await desk.value('balances.spot', {});
    expect(await state()).toMatchObject({ state: 'connected' });
    expect((await state()).degradedSince).toBeUndefined();
  });
});
