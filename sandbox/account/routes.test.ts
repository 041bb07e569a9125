import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDetail } from '../../shared/platform/api/subAccounts';
import type { SandboxHandle } from '../server';
import { api, controlAnswer, mainCreds, startTestSandbox } from '../testing/harness';

let sb: SandboxHandle;
type Err = { label: string; message: string };
type Key = { key: string; secret: string };

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 11 });
});
afterAll(() => sb.close());

describe('GET /account/detail', () => {
  it("describes the calling key: its user, IP whitelist and mode, in the app's schema", async () => {
    const res = await api(sb, mainCreds(sb), 'GET', '/account/detail');
    expect(res.status).toBe(200);
    const detail = AccountDetail.parse(res.body);
    expect(res.body).toEqual({
      user_id: sb.userId,
      ip_whitelist: [],
      currency_pairs: [],
      key: { mode: 1 },
      tier: 0,
      copy_trading_role: 0,
    });
    expect(detail.user_id).toBe(sb.userId);
  });

  it("shows a whitelisted key's addresses and answers a sub-account key with the sub-account's id", async () => {
    const sub = sb.ctx.users.subAccounts(sb.userId)[0]!;
    const made = await controlAnswer<Key>(sb, 'POST', '/keys', {
      user_id: sub.id,
      perms: [{ name: 'account', read_only: true }],
      ip_whitelist: ['127.0.0.1', '10.0.0.7'],
    });
    const res = await api<Record<string, unknown>>(sb, made.body, 'GET', '/account/detail');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: sub.id, ip_whitelist: ['127.0.0.1', '10.0.0.7'] });
  });

  it('needs the account permission, like the platform', async () => {
    const made = await controlAnswer<Key>(sb, 'POST', '/keys', {
      user_id: sb.userId,
      perms: [{ name: 'futures', read_only: false }],
    });
    const res = await api<Err>(sb, made.body, 'GET', '/account/detail');
    expect(res.status).toBe(403);
    expect(res.body.label).toBe('FORBIDDEN');
  });
});
