/**
 * Conformance with the platform's documented behaviour, checked with the platform's own clients:
 * the official SDK (gate-api), CCXT's gate (REST) and CCXT Pro (WebSocket), unchanged, only the URLs
 * point at the sandbox. The whole sweep (sandbox/testing/conformance.ts, also
 * `npm run conformance:sandbox`) must pass with no schema deviation; then one test per behaviour the
 * platform's documentation fixes (issue 24), each failing on the sandbox as it was before.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrencyPair } from '../shared/platform/api/spot';
import { FuturesAccount, SubAccountFuturesBalance, WithdrawalRecord } from '../shared/platform/api/wallet';
import { signChannel } from './http/signature';
import type { SandboxHandle } from './server';
import { ccxtOn, pointCcxtAtSandbox, runConformance, withoutEmptyBodyNoise } from './testing/conformance';
import { api, control, mainCreds, signedHeaders, startTestSandbox } from './testing/harness';
import { type GateApi, gateApi } from './testing/sdks';
import { TestStream } from './testing/stream';

let sb: SandboxHandle;
const streams: TestStream[] = [];

beforeAll(async () => {
  sb = await startTestSandbox({ market: 'on', clock: 'manual', seed: 21 });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await sb.close();
});

const { ApiClient, SpotApi, WalletApi } = gateApi;
const sdkClient = (): GateApi.ApiClient => {
  const c = new ApiClient(sb.baseUrl);
  c.setApiKeySecret(sb.key, sb.secret);
  return c;
};

const openStream = async (): Promise<TestStream> => {
  const s = await TestStream.open(sb.wsUrl);
  streams.push(s);
  return s;
};

/** A signed GET /spot/accounts with a chosen Timestamp (Unix seconds); its HTTP status. */
const restAt = async (time: number): Promise<number> => {
  const path = '/api/v4/spot/accounts';
  const headers = signedHeaders(mainCreds(sb), 'GET', path, 'currency=USDT', '', String(time));
  return (await fetch(`${new URL(sb.baseUrl).origin}${path}?currency=USDT`, { headers })).status;
};

/** CCXT Pro's gate with its REST and spot WebSocket URLs on the sandbox, markets loaded. */
const proOn = async (secret: string): Promise<InstanceType<typeof ccxt.pro.gate>> => {
  const pro = pointCcxtAtSandbox(new ccxt.pro.gate({ apiKey: sb.key, secret }), sb);
  // CCXT opens a plain ws:// URL (loopback) only with an http agent loaded first.
  await pro.loadHttpProxyAgent();
  await pro.loadMarkets();
  return pro;
};

/** Resolves when CCXT Pro has received the sandbox's answer to its subscription of `channel`. */
const acknowledged = (pro: InstanceType<typeof ccxt.pro.gate>, channel: string): Promise<void> =>
  new Promise((resolve) => {
    const handle = pro.handleMessage.bind(pro);
    pro.handleMessage = (client, message) => {
      const m = message as { event?: string; channel?: string };
      if (m.event === 'subscribe' && m.channel === channel) resolve();
      return handle(client, message);
    };
  });

/** A signed private subscription with a chosen `time` (Unix seconds). */
const subscribeAt = (s: TestStream, channel: string, payload: unknown, time: number, secret = sb.secret) => {
  const id = Math.floor(Math.random() * 1e9);
  const answer = s.next((m) => m.id === id);
  s.send({
    time,
    id,
    channel,
    event: 'subscribe',
    payload,
    auth: { method: 'api_key', KEY: sb.key, SIGN: signChannel(secret, channel, 'subscribe', time) },
  });
  return answer;
};

describe('the official SDK and CCXT against the sandbox', () => {
  it('every case passes and every answer matches the SDK models (no schema deviation)', async () => {
    const report = await runConformance(sb);
    const failures = [...report.sdk, ...report.ccxt].filter((r) => !r.ok);
    expect(failures).toEqual([]);
    expect(report.deviations).toEqual([]);
    expect(report.sdk.length).toBeGreaterThanOrEqual(81);
    expect(report.ccxt.length).toBeGreaterThanOrEqual(38);
  }, 60_000);
});

describe('REST behaviour the platform documents', () => {
  it('GET /spot/insurance_history is public: the SDK reads it without a key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const anonymous = new SpotApi(new ApiClient(sb.baseUrl));
    const answer = await anonymous.getSpotInsuranceHistory('margin', 'BTC', now - 3 * 86_400, now);
    expect(answer.response.status).toBe(200);
    expect(answer.body[0]).toMatchObject({ currency: 'BTC' });
  });

  it('POST /wallet/small_balance answers 200 with no body', async () => {
    const answer = await withoutEmptyBodyNoise(() =>
      new WalletApi(sdkClient()).convertSmallBalance({ currency: ['PEPE'] }),
    );
    expect(answer.response.status).toBe(200);
    expect(answer.response.data).toBe('');
    expect(answer.response.headers['content-length']).toBe('0');
  });

  it('a post-only order that would take is refused with the platform label and message, and nothing is stored', async () => {
    const spot = new SpotApi(sdkClient());
    const ask = (await spot.listOrderBook('BTC_USDT', { limit: 1 })).body.asks?.[0]?.[0];
    expect(ask).toBeDefined();
    await expect(
      spot.createOrder({
        currencyPair: 'BTC_USDT',
        side: 'buy',
        amount: '0.001',
        price: ask,
        timeInForce: 'poc',
        text: 't-poc-take',
      } as never),
    ).rejects.toMatchObject({
      response: {
        status: 400,
        data: { label: 'POC_FILL_IMMEDIATELY', message: "Order would match and take immediately so it's cancelled" },
      },
    });
    const open = (await spot.listOrders('BTC_USDT', 'open')).body;
    expect(open.map((o) => o.text)).not.toContain('t-poc-take');
    // CCXT reads the same answer as its OrderImmediatelyFillable.
    await expect(
      ccxtOn(sb).createOrder('BTC/USDT', 'limit', 'buy', 0.001, Number(ask), { postOnly: true }),
    ).rejects.toBeInstanceOf(ccxt.OrderImmediatelyFillable);
  });

  it('a pair without a maximum says null ("no limit"), and the app reads that as no maximum', async () => {
    const answer = await new SpotApi(sdkClient()).getCurrencyPair('BTC_USDT');
    const raw = answer.response.data as Record<string, unknown>;
    expect(raw.max_base_amount).toBeNull();
    expect(raw.max_quote_amount).toBe('5000000');
    // The app's schema (shared/platform/api) reads null as "no maximum".
    const pair = CurrencyPair.parse(raw);
    expect(pair.max_base_amount).toBeUndefined();
    expect(pair.max_quote_amount).toBe('5000000');
  });

  it("the app's own schemas parse the withdrawal and futures shapes without the extra fields", async () => {
    const withdrawals = await api<unknown[]>(sb, mainCreds(sb), 'GET', '/wallet/withdrawals?currency=USDT');
    expect(withdrawals.body.length).toBeGreaterThan(0);
    for (const w of withdrawals.body) {
      expect(w).not.toHaveProperty('asset_class');
      WithdrawalRecord.parse(w);
    }
    const futures = await api<Record<string, unknown>>(sb, mainCreds(sb), 'GET', '/futures/usdt/accounts');
    for (const extra of ['margin_mode_name', 'update_id', 'update_time', 'user'])
      expect(futures.body).not.toHaveProperty(extra);
    FuturesAccount.parse(futures.body);
    const subs = await api<unknown[]>(sb, mainCreds(sb), 'GET', '/wallet/sub_account_futures_balances');
    for (const s of subs.body) SubAccountFuturesBalance.parse(s);
  });
});

describe('one clock rule for REST and WebSocket', () => {
  it('after the manual clock is moved, REST and the private channels accept the same timestamps', async () => {
    await control(sb, '/advance', { seconds: 7_200 });
    const serverTime = Math.floor(((await new SpotApi(sdkClient()).getSystemTime()).body.serverTime ?? 0) / 1000);
    const wallTime = Math.floor(Date.now() / 1000);
    expect(serverTime - wallTime).toBeGreaterThan(3_600);
    const s = await openStream();
    for (const time of [wallTime, serverTime]) {
      expect(await restAt(time), `REST at ${time}`).toBe(200);
      // The stream, signed at that time.
      const ws = await subscribeAt(s, 'spot.balances', ['!all'], time);
      expect(ws.error, `WebSocket at ${time}`).toBeUndefined();
    }
    // Far from both: refused by both, with the same meaning.
    const stale = wallTime - 600;
    expect(await restAt(stale)).toBe(401);
    const refused = await subscribeAt(s, 'spot.balances', ['!all'], stale);
    expect(refused.error?.code).toBe(6);
    expect(JSON.parse(refused.error?.message ?? '{}')).toMatchObject({ label: 'REQUEST_EXPIRED' });
  });

  it('CCXT Pro (signing with the wall clock) watches orders after the clock was moved', async () => {
    await control(sb, '/advance', { seconds: 3_600 });
    const pro = await proOn(sb.secret);
    try {
      const subscribed = acknowledged(pro, 'spot.orders');
      const watching = pro.watchOrders('BTC/USDT');
      await subscribed;
      const placed = await api<{ id: string }>(sb, mainCreds(sb), 'POST', '/spot/orders', {
        currency_pair: 'BTC_USDT',
        type: 'market',
        side: 'buy',
        amount: '20',
        time_in_force: 'ioc',
      });
      const seen = await watching;
      expect(seen.map((o) => o.id)).toContain(placed.body.id);
    } finally {
      await pro.close();
    }
  });
});

describe('WebSocket details', () => {
  it('conn_id is a 16-digit hex string', async () => {
    const s = await openStream();
    const ack = await s.request('spot.tickers', 'subscribe', ['BTC_USDT']);
    expect((ack as unknown as { conn_id: unknown }).conn_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('an order that fills at once sends put, then finish, on spot.orders', async () => {
    const s = await openStream();
    const ack = await s.request('spot.orders', 'subscribe', ['BTC_USDT'], mainCreds(sb));
    expect(ack.error).toBeUndefined();
    const placed = await api<{ id: string; status: string }>(sb, mainCreds(sb), 'POST', '/spot/orders', {
      currency_pair: 'BTC_USDT',
      type: 'market',
      side: 'buy',
      amount: '20',
      time_in_force: 'ioc',
    });
    expect(placed.body.status).toBe('closed');
    const events: { event: string; status: string; left: string }[] = [];
    await s.next(
      (m) =>
        m.channel === 'spot.orders' &&
        m.event === 'update' &&
        (m.result as { id: string; event: string }[]).some((o) => o.id === placed.body.id && o.event === 'finish'),
    );
    for (const m of s.messages.filter((x) => x.channel === 'spot.orders' && x.event === 'update')) {
      for (const o of m.result as { id: string; event: string; status: string; left: string }[]) {
        if (o.id === placed.body.id) events.push({ event: o.event, status: o.status, left: o.left });
      }
    }
    expect(events.map((e) => e.event)).toEqual(['put', 'finish']);
    expect(events[0]).toMatchObject({ status: 'open', left: '20' });
    expect(events[1]).toMatchObject({ status: 'closed' });
  });

  it("a refused private subscription carries the platform's JSON error with its label", async () => {
    const s = await openStream();
    const time = Math.floor(Date.now() / 1000);
    const wrongSecret = await subscribeAt(s, 'spot.orders', ['BTC_USDT'], time, 'not-the-secret');
    expect(wrongSecret.error?.code).toBe(4);
    expect(JSON.parse(wrongSecret.error?.message ?? '')).toEqual({
      label: 'INVALID_SIGNATURE',
      message: 'Signature mismatch',
    });
    const unknownKey = await s.request('spot.orders', 'subscribe', ['BTC_USDT'], { key: 'nope', secret: 'x' });
    expect(JSON.parse(unknownKey.error?.message ?? '')).toEqual({
      label: 'INVALID_KEY',
      message: 'Invalid key provided',
    });
    // CCXT Pro turns it into its authentication error.
    const pro = await proOn('not-the-secret');
    try {
      await expect(pro.watchOrders('BTC/USDT')).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    } finally {
      await pro.close();
    }
  });
});
