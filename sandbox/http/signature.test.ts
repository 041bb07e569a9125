import { describe, expect, it } from 'vitest';
import { bodyHash, decodeQueryForSigning, EMPTY_BODY_SHA512, sign } from './signature';

// api-facts §6.4: the platform's official vectors (key "key", secret "secret") and extra ones.
describe('APIv4 signature', () => {
  it('hashes the empty body as the docs say', () => {
    expect(EMPTY_BODY_SHA512).toBe(
      'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    );
  });

  it('verifies the official GET vector', () => {
    expect(
      sign(
        'secret',
        'GET',
        '/api/v4/futures/orders',
        'contract=BTC_USD&status=finished&limit=50',
        EMPTY_BODY_SHA512,
        '1541993715',
      ),
    ).toBe(
      '55f84ea195d6fe57ce62464daaa7c3c02fa9d1dde954e4c898289c9a2407a3d6fb3faf24deff16790d726b66ac9f74526668b13bd01029199cc4fcc522418b8a',
    );
  });

  it('verifies the official POST vector', () => {
    const body = '{"contract":"BTC_USD","type":"limit","size":100,"price":6800,"time_in_force":"gtc"}';
    expect(bodyHash(body)).toBe(
      'ad3c169203dc3026558f01b4df307641fa1fa361f086b2306658886d5708767b1854797c68d9e62fef2f991645aa82673622ebf417e091d0bd22bafe5d956cca',
    );
    expect(sign('secret', 'POST', '/api/v4/futures/orders', '', bodyHash(body), '1541993715')).toBe(
      'eae42da914a590ddf727473aff25fc87d50b64783941061f47a3fdb92742541fc4c2c14017581b4199a1418d54471c269c03a38d788d802e2c306c37636389f0',
    );
  });

  it('verifies the computed spot vectors, including a fractional timestamp', () => {
    expect(
      sign(
        'secret',
        'GET',
        '/api/v4/spot/orders',
        'currency_pair=BTC_USDT&status=open',
        EMPTY_BODY_SHA512,
        '1541993715',
      ),
    ).toBe(
      '93fd0852e183795350a1b58b5866854c2d30b0ffbad41303eff94206844cb4abadd3a24988d478388f37f70710a633e793e4c78607441cac1bedb60d945c2300',
    );
    const body = '{"currency_pair":"BTC_USDT","side":"buy","amount":"0.001","price":"65000"}';
    expect(sign('secret', 'POST', '/api/v4/spot/orders', '', bodyHash(body), '1541993715')).toBe(
      'ab42ea173fb8f8838c840501394de149a8009bdc1ea71e3342df734ebe6ea8a9bfccc719972d39d45becd58ffc72f463217aa8f04d2d1964991b02c2b2563382',
    );
    expect(
      sign(
        'secret',
        'DELETE',
        '/api/v4/spot/orders/12345',
        'currency_pair=BTC_USDT',
        EMPTY_BODY_SHA512,
        '1541993715.123456',
      ),
    ).toBe(
      'c2dc300db0fcdfd7673fb5a7b1a6f128a1fef2db3086e9a0f2e78b8aebfe4e043c4468a90020a4513c890fd45345be3c79d25655226aab66fb6176a831ca217d',
    );
  });

  it('signs the query form-decoded in received order', () => {
    expect(decodeQueryForSigning('sub_uid=1%2C2&b=a+b&c=%25')).toBe('sub_uid=1,2&b=a b&c=%');
    expect(decodeQueryForSigning('bad=%zz')).toBe('bad=%zz');
  });
});
