import { describe, expect, it } from 'vitest';
import {
  CHANNEL_SIGNING_VECTORS,
  EMPTY_BODY_SHA512_HEX,
  REST_SIGNING_VECTORS,
} from '../../shared/platform/signingVectors';
import {
  bodyHash,
  channelSignatureValid,
  decodeQueryForSigning,
  EMPTY_BODY_SHA512,
  sign,
  signatureValid,
  signChannel,
} from './signature';

// The shared vectors (api-facts §6.4), which the app's signer is checked against too
// (core/api/sign.test.ts): the two are written apart and agree on these.
describe('APIv4 signature', () => {
  it('hashes the empty body as the docs say', () => {
    expect(EMPTY_BODY_SHA512).toBe(EMPTY_BODY_SHA512_HEX);
  });

  it.each(REST_SIGNING_VECTORS)('REST: $name', (v) => {
    if (v.bodySha512 !== undefined) expect(bodyHash(v.body)).toBe(v.bodySha512);
    expect(sign(v.secret, v.method, v.path, v.query, bodyHash(v.body), v.timestamp)).toBe(v.sign);
    expect(signatureValid(v.secret, v.method, v.path, v.query, bodyHash(v.body), v.timestamp, v.sign)).toBe(true);
    // Any case of hex is accepted; another timestamp or secret is not.
    expect(
      signatureValid(v.secret, v.method, v.path, v.query, bodyHash(v.body), v.timestamp, v.sign.toUpperCase()),
    ).toBe(true);
    expect(signatureValid(v.secret, v.method, v.path, v.query, bodyHash(v.body), `${v.timestamp}1`, v.sign)).toBe(
      false,
    );
    expect(signatureValid('other', v.method, v.path, v.query, bodyHash(v.body), v.timestamp, v.sign)).toBe(false);
  });

  it.each(CHANNEL_SIGNING_VECTORS)('WebSocket: $name', (v) => {
    expect(signChannel(v.secret, v.channel, v.event, v.time)).toBe(v.sign);
    expect(channelSignatureValid(v.secret, v.channel, v.event, v.time, v.sign)).toBe(true);
    expect(channelSignatureValid(v.secret, v.channel, 'unsubscribe', v.time, v.sign)).toBe(false);
    expect(channelSignatureValid(v.secret, v.channel, v.event, v.time + 1, v.sign)).toBe(false);
    expect(channelSignatureValid(v.secret, v.channel, v.event, v.time, 'not hex')).toBe(false);
  });

  it('signs the query form-decoded in received order', () => {
    expect(decodeQueryForSigning('sub_uid=1%2C2&b=a+b&c=%25')).toBe('sub_uid=1,2&b=a b&c=%');
    expect(decodeQueryForSigning('bad=%zz')).toBe('bad=%zz');
  });
});
