/**
 * The connection's "degraded" level: the stream still brings the market while the platform's REST
 * answers fail. The status says so, with since when, instead of a green "Connected"; it is
 * connected again once REST answers. With the stream down too it is an error, which REST answering
 * ends as well.
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

describe('a connection whose REST requests fail while its stream is down', () => {
  // The bench:team stall (commit 5db68ea): this 'error' did not end when REST answered again, and a
  // team desk, which sends only while its connection is 'connected', stopped sending for good.
  it('is an error while they fail, and connected again once REST answers', async () => {
    await desk.value('trade.watchMarket', { pair: 'BTC_USDT', candleInterval: '1m' });
    await vi.waitFor(async () => expect((await state()).state).toBe('connected'), { timeout: 10_000 });
    // The last subscription gone, the stream closes and stays closed: nothing is left to watch.
    await desk.value('trade.unwatchMarket', {});
    await control(desk.sandbox, '/faults', { rules: [{ path: '/api/v4/spot/accounts', kind: 'status_500' }] });
    await desk.call('balances.spot', {});
    await vi.waitFor(async () => expect((await state()).state).toBe('error'), { timeout: 10_000 });

    await control(desk.sandbox, '/faults', undefined, 'DELETE');
    await desk.value('balances.spot', {});
    expect(await state()).toMatchObject({ state: 'connected' });
    // And it stays so when the stream opens again.
    await desk.value('trade.watchMarket', { pair: 'BTC_USDT', candleInterval: '1m' });
    expect(await state()).toMatchObject({ state: 'connected' });
  });

  it('asks by itself whether REST answers again: connected again with nothing else sent', async () => {
    await desk.value('trade.unwatchMarket', {});
    await control(desk.sandbox, '/faults', { rules: [{ path: '/api/v4/spot/accounts', kind: 'status_500' }] });
    await desk.call('balances.spot', {});
    await vi.waitFor(async () => expect((await state()).state).toBe('error'), { timeout: 10_000 });
    // The platform answers again; nothing of the desk's asks it (an idle desk, or a team desk
    // waiting to send, which sends only while connected).
    await control(desk.sandbox, '/faults', undefined, 'DELETE');
    await vi.waitFor(async () => expect((await state()).state).toBe('connected'), { timeout: 10_000 });
  });
});
