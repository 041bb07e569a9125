import { describe, expect, it } from 'vitest';
import { buildQuery, decodeQueryForSigning, EMPTY_BODY_SHA512, sign } from './sign';

// Official vectors of api-facts §6.4 (key "key", secret "secret") and the extra computed ones.
describe('sign', () => {
  it('matches the official GET vector', () => {
    expect(
      sign('secret', {
        method: 'GET',
        path: '/api/v4/futures/orders',
        query: 'contract=BTC_USD&status=finished&limit=50',
        body: '',
        timestamp: '1541993715',
      }),
    ).toBe(
      '55f84ea195d6fe57ce62464daaa7c3c02fa9d1dde954e4c898289c9a2407a3d6fb3faf24deff16790d726b66ac9f74526668b13bd01029199cc4fcc522418b8a',
    );
  });

  it('matches the official POST vector', () => {
    expect(
      sign('secret', {
        method: 'POST',
        path: '/api/v4/futures/orders',
        query: '',
        body: '{"contract":"BTC_USD","type":"limit","size":100,"price":6800,"time_in_force":"gtc"}',
        timestamp: '1541993715',
      }),
    ).toBe(
      'eae42da914a590ddf727473aff25fc87d50b64783941061f47a3fdb92742541fc4c2c14017581b4199a1418d54471c269c03a38d788d802e2c306c37636389f0',
    );
  });

  it('matches the computed spot vectors, including a fractional timestamp', () => {
    expect(
      sign('secret', {
        method: 'GET',
        path: '/api/v4/spot/orders',
        query: 'currency_pair=BTC_USDT&status=open',
        body: '',
        timestamp: '1541993715',
      }),
    ).toBe(
      '93fd0852e183795350a1b58b5866854c2d30b0ffbad41303eff94206844cb4abadd3a24988d478388f37f70710a633e793e4c78607441cac1bedb60d945c2300',
    );
    expect(
      sign('secret', {
        method: 'POST',
        path: '/api/v4/spot/orders',
        query: '',
        body: '{"currency_pair":"BTC_USDT","side":"buy","amount":"0.001","price":"65000"}',
        timestamp: '1541993715',
      }),
    ).toBe(
      'ab42ea173fb8f8838c840501394de149a8009bdc1ea71e3342df734ebe6ea8a9bfccc719972d39d45becd58ffc72f463217aa8f04d2d1964991b02c2b2563382',
    );
    expect(
      sign('secret', {
        method: 'delete',
        path: '/api/v4/spot/orders/12345',
        query: 'currency_pair=BTC_USDT',
        body: '',
        timestamp: '1541993715.123456',
      }),
    ).toBe(
      'c2dc300db0fcdfd7673fb5a7b1a6f128a1fef2db3086e9a0f2e78b8aebfe4e043c4468a90020a4513c890fd45345be3c79d25655226aab66fb6176a831ca217d',
    );
  });

  it('uses the hash of the empty string for a request without body', () => {
    expect(EMPTY_BODY_SHA512.startsWith('cf83e135')).toBe(true);
  });

  it('signs the query decoded, in the order sent (commas and spaces survive the round trip)', () => {
    const query = buildQuery({ user_id: '1,2,3', name: 'a b', skip: undefined, limit: 5 });
    expect(query).toBe('user_id=1%2C2%2C3&name=a%20b&limit=5');
    expect(decodeQueryForSigning(query)).toBe('user_id=1,2,3&name=a b&limit=5');
    expect(decodeQueryForSigning('a=b+c')).toBe('a=b c');
  });
});
