/**
 * Fuzz: malformed requests against the wallet, withdrawal and sub-account groups (and random paths,
 * raw broken percent-escapes, HEAD). Properties: never a 5xx, every non-2xx carries a spec label
 * (HEAD answers carry no body), every answer the common headers, and no balance moves (the value
 * pools hold no amount that is both well-formed and covered by a balance).
 *
 * Run at two sizes: `sandbox/fuzz.test.ts` in `npm test`, `sandbox/fuzz.soak.test.ts` (the same
 * seed, more runs) in `npm run test:soak`.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { ALL_ERROR_LABELS } from '../../shared/platform/labels';
import { bodyHash, sign } from '../http/signature';
import type { SandboxHandle } from '../server';
import { control, startTestSandbox } from './harness';

const ENDPOINTS: [string, string][] = [
  ['GET', '/wallet/currency_chains'],
  ['GET', '/wallet/deposit_address'],
  ['GET', '/wallet/withdrawals'],
  ['GET', '/wallet/deposits'],
  ['POST', '/wallet/transfers'],
  ['POST', '/wallet/sub_account_transfers'],
  ['GET', '/wallet/sub_account_transfers'],
  ['POST', '/wallet/sub_account_to_sub_account'],
  ['GET', '/wallet/order_status'],
  ['GET', '/wallet/withdraw_status'],
  ['GET', '/wallet/sub_account_balances'],
  ['GET', '/wallet/sub_account_margin_balances'],
  ['GET', '/wallet/sub_account_futures_balances'],
  ['GET', '/wallet/sub_account_cross_margin_balances'],
  ['GET', '/wallet/saved_address'],
  ['GET', '/wallet/fee'],
  ['GET', '/wallet/total_balance'],
  ['GET', '/wallet/small_balance'],
  ['POST', '/wallet/small_balance'],
  ['GET', '/wallet/small_balance_history'],
  ['GET', '/wallet/push'],
  ['GET', '/wallet/getLowCapExchangeList'],
  ['POST', '/withdrawals'],
  ['POST', '/withdrawals/push'],
  ['DELETE', '/withdrawals/{id}'],
  ['POST', '/sub_accounts'],
  ['GET', '/sub_accounts'],
  ['GET', '/sub_accounts/{id}'],
  ['POST', '/sub_accounts/{id}/keys'],
  ['GET', '/sub_accounts/{id}/keys'],
  ['GET', '/sub_accounts/{id}/keys/{id}'],
  ['PUT', '/sub_accounts/{id}/keys/{id}'],
  ['DELETE', '/sub_accounts/{id}/keys/{id}'],
  ['GET', '/sub_accounts/unified_mode'],
  ['GET', '/margin/account_book'],
  ['GET', '/futures/{id}/account_book'],
  ['GET', '/delivery/{id}/account_book'],
];

const NAMES = [
  'currency',
  'chain',
  'amount',
  'from',
  'to',
  'settle',
  'currency_pair',
  'sub_account',
  'sub_account_type',
  'direction',
  'client_order_id',
  'sub_account_from',
  'sub_account_from_type',
  'sub_account_to',
  'sub_account_to_type',
  'address',
  'memo',
  'withdraw_order_id',
  'asset_class',
  'receive_uid',
  'login_name',
  'remark',
  'email',
  'password',
  'perms',
  'ip_whitelist',
  'mode',
  'name',
  'limit',
  'offset',
  'page',
  'sub_uid',
  'tx_id',
  'withdraw_id',
  'transaction_type',
  'type',
  'id',
  'is_all',
];

/** No entry is a well-formed amount within any balance: nothing can move money. */
const VALUES: unknown[] = [
  '',
  ' ',
  '-1',
  '0',
  '0.0',
  '1e5',
  'abc',
  '0.0000000001',
  '99999999999',
  'NaN',
  'Infinity',
  null,
  [],
  {},
  [1, 2],
  { a: 1 },
  -5,
  0,
  1.25e301,
  Number.MAX_SAFE_INTEGER,
  'USDT',
  'BTC',
  'DUST',
  'BTC_USDT',
  'spot',
  'margin',
  'futures',
  'delivery',
  'options',
  'to',
  'from',
  '10000002',
  '10000003',
  10000004,
  'TRX',
  'TON',
  'usdt',
  'SPOT',
  '１２',
  '\u0000',
  '%00',
  "'; DROP TABLE balances;--",
  'x'.repeat(300),
  '__proto__',
  'constructor',
  '-',
  'w20000001',
  '0',
  '1,2',
  '10000002,abc',
  'withdraw',
  'deposit',
  false,
  'true',
  [{ name: 'wallet', read_only: 'no' }],
  ['300.1.1.1'],
];

const value = fc.constantFrom(...VALUES);
const jsonObject = fc.dictionary(fc.constantFrom(...NAMES, '__proto__', 'zzz'), value, { maxKeys: 8 });
const idLike = fc.oneof(
  fc.constantFrom('10000002', '10000003', 'usdt', 'btc', 'w20000001', '0', '-1', '%zz', 'abc', '..'),
  fc.string({ maxLength: 12 }),
);

/**
 * A random path from the same characters and sizes as fast-check's `fc.webPath()` (RFC 3986):
 * segments of letters, digits, `-._~!$&'()*+,;=:@` and, one character in eleven, any code point
 * percent-encoded; its default size ('small': short segments in a longer path, or the other way
 * round). Built here because fast-check makes its any-code-point character with a reverse map of
 * every code point, 0.7–0.8 s of CPU before the first request (measured alone, `node -e`); here the
 * code point is drawn as an integer.
 */
const SEGMENT_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"];
const isSurrogate = (codePoint: number) => codePoint >= 0xd800 && codePoint <= 0xdfff;
const percentEncodedChar = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((codePoint) => !isSurrogate(codePoint))
  .map((codePoint) => {
    const c = String.fromCodePoint(codePoint);
    const encoded = encodeURIComponent(c);
    return c !== encoded ? encoded : `%${codePoint.toString(16)}`;
  });
const pathOf = (segmentSize: fc.SizeForArbitrary, segmentsSize: fc.SizeForArbitrary) =>
  fc
    .array(
      fc.string({
        unit: fc.oneof(
          { weight: 10, arbitrary: fc.constantFrom(...SEGMENT_CHARS) },
          { weight: 1, arbitrary: percentEncodedChar },
        ),
        size: segmentSize,
      }),
      { size: segmentsSize },
    )
    .map((segments) => segments.map((segment) => `/${segment}`).join(''));
const webPath = fc.oneof(pathOf('small', 'xsmall'), pathOf('xsmall', 'small'));

/** Sent raw (not encoded): escapes the router cannot decode, and a path parameter over its limit. */
const BROKEN_SEGMENTS = ['%ff', '%zz', '%', '%e2%82', '%C0%AF', 'a%2', '%fe%ff', '9'.repeat(300)];

const request = fc.record({
  endpoint: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...ENDPOINTS) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), webPath),
    },
  ),
  methodOverride: fc.option(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'), { freq: 8 }),
  ids: fc.array(idLike, { minLength: 2, maxLength: 2 }),
  /** Replaces the first id (or is appended as a last segment) without encoding. */
  brokenSegment: fc.option(fc.constantFrom(...BROKEN_SEGMENTS), { freq: 6 }),
  query: fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 5 }),
  rawQuery: fc.option(fc.string({ maxLength: 30 }), { freq: 6 }),
  body: fc.oneof(
    { weight: 6, arbitrary: jsonObject.map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    '',
  ),
  auth: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'none', 'bad-sign', 'old', 'junk-key'),
  accept: fc.constantFrom('application/json', '*/*', '', 'text/html', 'application/*;q=0.5'),
});

const ANSWER_HEADERS = ['x-in-time', 'x-out-time', 'x-svc-trace-id'];
const RATE_LIMIT_ANSWER_HEADERS = [
  'x-gate-ratelimit-limit',
  'x-gate-ratelimit-requests-remain',
  'x-gate-ratelimit-reset-timestamp',
];

const balances = (sb: SandboxHandle): string =>
  JSON.stringify(sb.ctx.db.prepare('SELECT * FROM balances ORDER BY user_id, account, currency, pair').all());

/**
 * Sends `runs` generated requests to a fresh sandbox (seed 11, rate limits counted but never
 * enforced: otherwise most answers would be 429 and the fuzz would test little) and checks every
 * answer; the sandbox is closed afterwards.
 */
export const fuzzWalletApi = async (runs: number): Promise<void> => {
  const sb = await startTestSandbox({ seed: 11 });
  try {
    await control(sb, '/rate_limits', { enforce: false });
    await sendMalformedRequests(sb, runs);
  } finally {
    await sb.close();
  }
};

const sendMalformedRequests = async (sb: SandboxHandle, runs: number): Promise<void> => {
  const before = balances(sb);
  let count = 0;
  const labels = new Set<string>();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const [baseMethod, template] = r.endpoint;
      const method = r.methodOverride ?? baseMethod;
      const base = `/api/v4${template.startsWith('/') ? '' : '/'}${template}`;
      const firstId = base.indexOf('{id}');
      const broken =
        r.brokenSegment === null
          ? base
          : firstId === -1
            ? `${base}/${r.brokenSegment}`
            : `${base.slice(0, firstId)}${r.brokenSegment}${base.slice(firstId + '{id}'.length)}`;
      let i = 0;
      const path = broken.replace(/\{id\}/g, () => encodeURIComponent(r.ids[i++ % 2]!));
      const query =
        r.rawQuery ??
        r.query.map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&');
      const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method) && r.body !== '';
      const body = hasBody ? r.body : '';
      const ts =
        r.auth === 'old' ? String(Math.floor(Date.now() / 1000) - 3600) : String(Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = {};
      if (r.accept) headers.Accept = r.accept;
      if (hasBody && r.contentType) headers['Content-Type'] = r.contentType;
      if (r.auth !== 'none') {
        const signed = sign(
          sb.secret,
          method,
          path,
          query.includes('%') ? safeDecode(query) : query.replace(/\+/g, ' '),
          bodyHash(body),
          ts,
        );
        headers.KEY = r.auth === 'junk-key' ? 'junk' : sb.key;
        headers.Timestamp = ts;
        headers.SIGN = r.auth === 'bad-sign' ? signed.replace(/^./, signed[0] === 'a' ? 'b' : 'a') : signed;
      }
      const url = `${sb.baseUrl.replace('/api/v4', '')}${path}${query ? `?${query}` : ''}`;
      let res: Response;
      try {
        res = await fetch(url, { method, headers, ...(hasBody ? { body } : {}) });
      } catch {
        return; // the client refused to send it (invalid URL or header): nothing reached the server
      }
      count += 1;
      const text = await res.text();
      const what = `${method} ${path}?${query} → ${res.status} ${text}`;
      expect(res.status, what).toBeLessThan(500);
      for (const header of ANSWER_HEADERS) expect(res.headers.get(header), `${header} on ${what}`).toBeTruthy();
      // The URL parser may resolve `..` segments out of /api/v4; the rate-limit headers are the API's.
      if (new URL(res.url).pathname.startsWith('/api/v4')) {
        for (const header of RATE_LIMIT_ANSWER_HEADERS) {
          expect(res.headers.get(header), `${header} on ${what}`).toMatch(/^\d+$/);
        }
      }
      if (method === 'HEAD') {
        expect(text, what).toBe('');
      } else if (res.status >= 400) {
        const parsed = JSON.parse(text) as { label: string; message: string };
        expect(ALL_ERROR_LABELS.has(parsed.label), `${parsed.label} is a spec label`).toBe(true);
        labels.add(parsed.label);
        expect(typeof parsed.message).toBe('string');
      }
    }),
    { numRuns: runs, seed: 20261121 },
  );
  // Most requests reach the server (the client refuses a few invalid URLs or headers).
  expect(count).toBeGreaterThan(runs * 0.8);
  // The raw broken segments reached the router (malformed URL) rather than being refused by the client.
  expect(labels).toContain('BAD_REQUEST');
  expect(balances(sb)).toBe(before);
};

function safeDecode(q: string): string {
  try {
    return decodeURIComponent(q.replace(/\+/g, ' '));
  } catch {
    return q;
  }
}
