import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../server';
import {
  api,
  type Credentials,
  control,
  controlAnswer,
  mainCreds,
  signedHeaders,
  startTestSandbox,
} from '../testing/harness';

let sb: SandboxHandle;
let main: Credentials;
const SUB = 10_000_002;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 1 });
  main = mainCreds(sb);
});
afterAll(() => sb.close());

async function raw(method: string, pathAndQuery: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(`${sb.baseUrl}${pathAndQuery}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: (await res.json()) as { label: string; message: string } };
}

async function keyWith(
  userId: number,
  perms: { name: string; read_only: boolean }[],
  extra: Record<string, unknown> = {},
) {
  const res = await controlAnswer<{ key: string; secret: string }>(sb, 'POST', '/keys', {
    user_id: userId,
    perms,
    ...extra,
  });
  expect(res.status).toBe(200);
  return { key: res.body.key, secret: res.body.secret };
}

describe('authentication failures', () => {
  it('MISSING_REQUIRED_HEADER when KEY, Timestamp or SIGN is absent', async () => {
    const full = signedHeaders(main, 'GET', '/api/v4/wallet/fee', '', '');
    for (const drop of ['KEY', 'Timestamp', 'SIGN']) {
      const headers = { ...full };
      delete headers[drop];
      const res = await raw('GET', '/wallet/fee', headers);
      expect(res.status).toBe(401);
      expect(res.body.label).toBe('MISSING_REQUIRED_HEADER');
    }
  });

  it('INVALID_KEY for an unknown key', async () => {
    const res = await api(sb, { key: 'f'.repeat(32), secret: 'x' }, 'GET', '/wallet/fee');
    expect([res.status, (res.body as { label: string }).label]).toEqual([401, 'INVALID_KEY']);
  });

  it('REQUEST_EXPIRED outside the 60 s window or with a malformed Timestamp', async () => {
    const old = String(Math.floor(Date.now() / 1000) - 120);
    const res = await raw('GET', '/wallet/fee', signedHeaders(main, 'GET', '/api/v4/wallet/fee', '', '', old));
    expect([res.status, res.body.label]).toEqual([401, 'REQUEST_EXPIRED']);
    const bad = await raw('GET', '/wallet/fee', signedHeaders(main, 'GET', '/api/v4/wallet/fee', '', '', 'yesterday'));
    expect(bad.body.label).toBe('REQUEST_EXPIRED');
  });

  it('accepts fractional-second timestamps and follows the server clock skew', async () => {
    const frac = (Date.now() / 1000).toFixed(3);
    const ok = await raw('GET', '/wallet/fee', signedHeaders(main, 'GET', '/api/v4/wallet/fee', '', '', frac));
    expect(ok.status).toBe(200);
    await control(sb, '/clock', { offset_seconds: 300 });
    const skewed = await api(sb, main, 'GET', '/wallet/fee');
    expect((skewed.body as { label: string }).label).toBe('REQUEST_EXPIRED');
    await control(sb, '/clock', { offset_seconds: 0 });
    expect((await api(sb, main, 'GET', '/wallet/fee')).status).toBe(200);
  });

  it('INVALID_SIGNATURE for a wrong secret, a changed query or a changed body', async () => {
    const wrong = await api(sb, { key: main.key, secret: 'not-the-secret' }, 'GET', '/wallet/fee');
    expect([wrong.status, (wrong.body as { label: string }).label]).toEqual([401, 'INVALID_SIGNATURE']);
    const headers = signedHeaders(main, 'GET', '/api/v4/wallet/deposits', 'currency=BTC', '');
    expect((await raw('GET', '/wallet/deposits?currency=ETH', headers)).body.label).toBe('INVALID_SIGNATURE');
    const body = JSON.stringify({ currency: 'USDT', from: 'spot', to: 'options', amount: '1' });
    const postHeaders = {
      ...signedHeaders(main, 'POST', '/api/v4/wallet/transfers', '', body),
      'Content-Type': 'application/json',
    };
    const tampered = await raw('POST', '/wallet/transfers', postHeaders, body.replace('"1"', '"100"'));
    expect(tampered.body.label).toBe('INVALID_SIGNATURE');
    // The untampered body is accepted: the failure above was the body, not the setup.
    expect((await raw('POST', '/wallet/transfers', postHeaders, body)).status).toBe(200);
  });

  it('verifies the query URL-decoded, as the SDKs sign it', async () => {
    const headers = signedHeaders(main, 'GET', '/api/v4/wallet/sub_account_balances', `sub_uid=${SUB},10000003`, '');
    const res = await raw('GET', `/wallet/sub_account_balances?sub_uid=${SUB}%2C10000003`, headers);
    expect(res.status).toBe(200);
  });

  it('IP_FORBIDDEN when the client IP is not whitelisted; a matching whitelist passes', async () => {
    const listed = await keyWith(sb.userId, [{ name: 'wallet', read_only: false }], { ip_whitelist: ['10.1.2.3'] });
    const res = await api(sb, listed, 'GET', '/wallet/fee');
    expect([res.status, (res.body as { label: string }).label]).toEqual([401, 'IP_FORBIDDEN']);
    const local = await keyWith(sb.userId, [{ name: 'wallet', read_only: false }], { ip_whitelist: ['127.0.0.1'] });
    expect((await api(sb, local, 'GET', '/wallet/fee')).status).toBe(200);
  });

  it('READ_ONLY for a write with a read-only permission; reads pass', async () => {
    const ro = await keyWith(sb.userId, [{ name: 'wallet', read_only: true }]);
    expect((await api(sb, ro, 'GET', '/wallet/fee')).status).toBe(200);
    const res = await api(sb, ro, 'POST', '/wallet/transfers', {
      currency: 'USDT',
      from: 'spot',
      to: 'options',
      amount: '1',
    });
    expect([res.status, (res.body as { label: string }).label]).toEqual([401, 'READ_ONLY']);
  });

  it('FORBIDDEN without the permission group, and for sub-account keys on main-only operations', async () => {
    const spotOnly = await keyWith(sb.userId, [{ name: 'spot', read_only: false }]);
    const res = await api(sb, spotOnly, 'GET', '/wallet/fee');
    expect([res.status, (res.body as { label: string }).label]).toEqual([403, 'FORBIDDEN']);
    const sub = await keyWith(SUB, [
      { name: 'wallet', read_only: false },
      { name: 'withdrawal', read_only: false },
    ]);
    const transfer = await api(sb, sub, 'POST', '/wallet/sub_account_transfers', {
      sub_account: String(SUB),
      currency: 'USDT',
      amount: '1',
      direction: 'from',
    });
    expect((transfer.body as { label: string }).label).toBe('FORBIDDEN');
    const withdraw = await api(sb, sub, 'POST', '/withdrawals', {
      currency: 'USDT',
      chain: 'TRX',
      address: 'Tx',
      amount: '20',
    });
    expect((withdraw.body as { label: string }).label).toBe('FORBIDDEN');
    expect((await api(sb, sub, 'GET', '/wallet/fee')).status).toBe(200);
  });

  it('ACCOUNT_LOCKED for keys of a frozen sub-account until it is unlocked', async () => {
    const sub = await keyWith(SUB, [{ name: 'wallet', read_only: false }]);
    expect((await api(sb, main, 'POST', `/sub_accounts/${SUB}/lock`)).status).toBe(204);
    const res = await api(sb, sub, 'GET', '/wallet/fee');
    expect([res.status, (res.body as { label: string }).label]).toEqual([401, 'ACCOUNT_LOCKED']);
    expect((await api(sb, main, 'POST', `/sub_accounts/${SUB}/unlock`)).status).toBe(204);
    expect((await api(sb, sub, 'GET', '/wallet/fee')).status).toBe(200);
  });

  it('INVALID_CREDENTIALS for a disabled key', async () => {
    const disabled = await keyWith(sb.userId, [{ name: 'wallet', read_only: false }], { state: 2 });
    const res = await api(sb, disabled, 'GET', '/wallet/fee');
    expect([res.status, (res.body as { label: string }).label]).toEqual([401, 'INVALID_CREDENTIALS']);
  });

  it('FORBIDDEN when the sub-account lacks a business permission its key has, until it is given back', async () => {
    const sub = await keyWith(SUB, [
      { name: 'wallet', read_only: false },
      { name: 'spot', read_only: false },
    ]);
    const off = await controlAnswer(sb, 'POST', '/sub_accounts/business_permissions', {
      user_id: SUB,
      disabled: ['spot'],
    });
    expect(off.body).toEqual({ user_id: SUB, disabled: ['spot'] });
    const refused = await api<{ label: string; message: string }>(sb, sub, 'GET', '/spot/accounts');
    expect([refused.status, refused.body.label]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.message).toContain('business permission');
    expect((await api(sb, sub, 'GET', '/wallet/fee')).status).toBe(200); // other groups unaffected
    expect((await api(sb, main, 'GET', '/spot/accounts')).status).toBe(200); // the main account too
    await control(sb, '/sub_accounts/business_permissions', { user_id: SUB, disabled: [] });
    expect((await api(sb, sub, 'GET', '/spot/accounts')).status).toBe(200);
    for (const bad of [
      { user_id: sb.userId, disabled: ['spot'] },
      { user_id: SUB, disabled: ['withdrawal'] },
      { user_id: SUB, disabled: 'spot' },
    ]) {
      expect((await controlAnswer(sb, 'POST', '/sub_accounts/business_permissions', bad)).status).toBe(400);
    }
  });

  it('a deleted sub-account key stops working at once', async () => {
    const created = await api<{ key: string; secret: string }>(sb, main, 'POST', `/sub_accounts/${SUB}/keys`, {
      perms: [{ name: 'wallet', read_only: true }],
    });
    const sub = { key: created.body.key, secret: created.body.secret };
    expect((await api(sb, sub, 'GET', '/wallet/fee')).status).toBe(200);
    expect((await api(sb, main, 'DELETE', `/sub_accounts/${SUB}/keys/${sub.key}`)).status).toBe(204);
    expect(((await api(sb, sub, 'GET', '/wallet/fee')).body as { label: string }).label).toBe('INVALID_KEY');
  });
});
