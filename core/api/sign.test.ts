import { describe, expect, it } from 'vitest';
import {
  CHANNEL_SIGNING_VECTORS,
  EMPTY_BODY_SHA512_HEX,
  REST_SIGNING_VECTORS,
} from '../../shared/platform/signingVectors';
import { buildQuery, decodeQueryForSigning, EMPTY_BODY_SHA512, sign, signChannel } from './sign';

// The shared vectors (api-facts §6.4): the platform's official ones and extra computed ones. The
// sandbox's own verifier is checked against the same list (sandbox/http/signature.test.ts).
describe('sign', () => {
  it.each(REST_SIGNING_VECTORS)('REST: $name', (v) => {
    expect(
      sign(v.secret, { method: v.method, path: v.path, query: v.query, body: v.body, timestamp: v.timestamp }),
    ).toBe(v.sign);
  });

  it('signs the method whatever its case', () => {
    const [v] = REST_SIGNING_VECTORS.filter((x) => x.method === 'DELETE');
    if (!v) throw new Error('a DELETE vector');
    expect(sign(v.secret, { ...v, method: 'delete' })).toBe(v.sign);
  });

  it.each(CHANNEL_SIGNING_VECTORS)('WebSocket: $name', (v) => {
    expect(signChannel(v.secret, v.channel, v.event, v.time)).toBe(v.sign);
  });

  it('uses the hash of the empty string for a request without body', () => {
    expect(EMPTY_BODY_SHA512).toBe(EMPTY_BODY_SHA512_HEX);
  });

  it('signs the query decoded, in the order sent (commas and spaces survive the round trip)', () => {
    const query = buildQuery({ user_id: '1,2,3', name: 'a b', skip: undefined, limit: 5 });
    expect(query).toBe('user_id=1%2C2%2C3&name=a%20b&limit=5');
    expect(decodeQueryForSigning(query)).toBe('user_id=1,2,3&name=a b&limit=5');
    expect(decodeQueryForSigning('a=b+c')).toBe('a=b c');
  });
});
