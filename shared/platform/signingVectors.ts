/**
 * Test vectors of the platform's request signing (api-facts §6.4), one list for every signer and
 * verifier: the app's (core/api/sign.ts, REST and WebSocket) and the sandbox's own,
 * independent verifier (sandbox/http/signature.ts). Each side's test checks itself against these,
 * so the two agree without sharing code. Pure data.
 */

/** A signed REST request: SIGN = hex HMAC-SHA512(secret, METHOD\nPATH\nQUERY\nhex(SHA512(body))\nTimestamp). */
export interface RestSigningVector {
  readonly name: string;
  readonly secret: string;
  readonly method: string;
  /** Path with the /api/v4 prefix. */
  readonly path: string;
  /** The query as signed: not URL-encoded, in the order sent. */
  readonly query: string;
  readonly body: string;
  /** Hex SHA-512 of the body, when the source gives it. */
  readonly bodySha512?: string;
  readonly timestamp: string;
  readonly sign: string;
}

/** A private WebSocket channel request: SIGN = hex HMAC-SHA512(secret, `channel=…&event=…&time=…`). */
export interface ChannelSigningVector {
  readonly name: string;
  readonly secret: string;
  readonly channel: string;
  readonly event: string;
  /** Unix seconds. */
  readonly time: number;
  readonly sign: string;
}

/** SHA-512 of the empty body (every GET and DELETE). */
export const EMPTY_BODY_SHA512_HEX =
  'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e';

export const REST_SIGNING_VECTORS: readonly RestSigningVector[] = [
  {
    name: 'official GET (platform docs, key "key", secret "secret")',
    secret: 'secret',
    method: 'GET',
    path: '/api/v4/futures/orders',
    query: 'contract=BTC_USD&status=finished&limit=50',
    body: '',
    bodySha512: EMPTY_BODY_SHA512_HEX,
    timestamp: '1541993715',
    sign: '55f84ea195d6fe57ce62464daaa7c3c02fa9d1dde954e4c898289c9a2407a3d6fb3faf24deff16790d726b66ac9f74526668b13bd01029199cc4fcc522418b8a',
  },
  {
    name: 'official POST (platform docs)',
    secret: 'secret',
    method: 'POST',
    path: '/api/v4/futures/orders',
    query: '',
    body: '{"contract":"BTC_USD","type":"limit","size":100,"price":6800,"time_in_force":"gtc"}',
    bodySha512:
      'ad3c169203dc3026558f01b4df307641fa1fa361f086b2306658886d5708767b1854797c68d9e62fef2f991645aa82673622ebf417e091d0bd22bafe5d956cca',
    timestamp: '1541993715',
    sign: 'eae42da914a590ddf727473aff25fc87d50b64783941061f47a3fdb92742541fc4c2c14017581b4199a1418d54471c269c03a38d788d802e2c306c37636389f0',
  },
  {
    name: 'spot GET with a query (computed)',
    secret: 'secret',
    method: 'GET',
    path: '/api/v4/spot/orders',
    query: 'currency_pair=BTC_USDT&status=open',
    body: '',
    timestamp: '1541993715',
    sign: '93fd0852e183795350a1b58b5866854c2d30b0ffbad41303eff94206844cb4abadd3a24988d478388f37f70710a633e793e4c78607441cac1bedb60d945c2300',
  },
  {
    name: 'spot POST with a body (computed)',
    secret: 'secret',
    method: 'POST',
    path: '/api/v4/spot/orders',
    query: '',
    body: '{"currency_pair":"BTC_USDT","side":"buy","amount":"0.001","price":"65000"}',
    timestamp: '1541993715',
    sign: 'ab42ea173fb8f8838c840501394de149a8009bdc1ea71e3342df734ebe6ea8a9bfccc719972d39d45becd58ffc72f463217aa8f04d2d1964991b02c2b2563382',
  },
  {
    name: 'spot DELETE with a fractional timestamp (computed)',
    secret: 'secret',
    method: 'DELETE',
    path: '/api/v4/spot/orders/12345',
    query: 'currency_pair=BTC_USDT',
    body: '',
    timestamp: '1541993715.123456',
    sign: 'c2dc300db0fcdfd7673fb5a7b1a6f128a1fef2db3086e9a0f2e78b8aebfe4e043c4468a90020a4513c890fd45345be3c79d25655226aab66fb6176a831ca217d',
  },
];

export const CHANNEL_SIGNING_VECTORS: readonly ChannelSigningVector[] = [
  {
    name: 'spot.orders subscribe (computed)',
    secret: 'secret',
    channel: 'spot.orders',
    event: 'subscribe',
    time: 1541993715,
    sign: 'e9c13b956612d4af11a7fd2025729fe28979b16153cf00e3aff2e4c7dd0155f413dce9fdff2297d9f62bda58c0463792dab6163597b9095f9600ed0d61990a34',
  },
];
