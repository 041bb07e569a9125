import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../server';
import { api, type Credentials, controlAnswer, mainCreds, startTestSandbox } from '../testing/harness';

let sb: SandboxHandle;
let main: Credentials;
type Err = { label: string; message: string };
type Rec = Record<string, unknown>;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 5 });
  main = mainCreds(sb);
});
afterAll(() => sb.close());

describe('sub-accounts', () => {
  it('creates a sub-account (201) with login-name rules, then lists and gets it', async () => {
    const created = await api<Rec>(sb, main, 'POST', '/sub_accounts', { login_name: 'desk_audit', remark: 'Audit' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      login_name: 'desk_audit',
      remark: 'Audit',
      state: 1,
      type: 1,
      user_id: expect.any(Number),
    });
    expect(created.body).not.toHaveProperty('password');
    for (const bad of ['ab', 'has-dash', 'with space', 'x'.repeat(33)]) {
      expect((await api<Err>(sb, main, 'POST', '/sub_accounts', { login_name: bad })).body.label).toBe(
        'INVALID_PARAM_VALUE',
      );
    }
    expect((await api<Err>(sb, main, 'POST', '/sub_accounts', { login_name: 'desk_audit' })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect((await api<Err>(sb, main, 'POST', '/sub_accounts', {})).body.label).toBe('MISSING_REQUIRED_PARAM');
    const list = await api<Rec[]>(sb, main, 'GET', '/sub_accounts');
    expect(list.body.map((s) => s.login_name)).toEqual(['desk_trading', 'desk_ops', 'desk_audit']);
    const one = await api<Rec>(sb, main, 'GET', `/sub_accounts/${created.body.user_id}`);
    expect(one.body.login_name).toBe('desk_audit');
    expect((await api<Err>(sb, main, 'GET', '/sub_accounts/1')).status).toBe(404);
    expect((await api<Err>(sb, main, 'GET', '/sub_accounts/abc')).body.label).toBe('INVALID_PARAM_VALUE');
  });

  it('lists normal sub-accounts by default and every type with type=0', async () => {
    sb.ctx.users.createUser({ parentId: sb.userId, loginName: 'desk_cross', type: 3 });
    const normal = await api<Rec[]>(sb, main, 'GET', '/sub_accounts');
    expect(normal.body.map((s) => s.login_name)).not.toContain('desk_cross');
    const all = await api<Rec[]>(sb, main, 'GET', '/sub_accounts?type=0');
    expect(all.body.find((s) => s.login_name === 'desk_cross')).toMatchObject({ type: 3 });
    expect((await api<Err>(sb, main, 'GET', '/sub_accounts?type=7')).body.label).toBe('INVALID_PARAM_VALUE');
  });

  it('locks and unlocks (204), reflected in state', async () => {
    expect((await api(sb, main, 'POST', '/sub_accounts/10000002/lock')).status).toBe(204);
    expect((await api<Rec>(sb, main, 'GET', '/sub_accounts/10000002')).body.state).toBe(2);
    expect((await api(sb, main, 'POST', '/sub_accounts/10000002/unlock')).status).toBe(204);
    expect((await api<Rec>(sb, main, 'GET', '/sub_accounts/10000002')).body.state).toBe(1);
  });

  it('manages keys: secret only at creation, update clears an omitted whitelist, delete', async () => {
    const created = await api<Rec>(sb, main, 'POST', '/sub_accounts/10000002/keys', {
      name: 'bot',
      mode: 1,
      perms: [
        { name: 'spot', read_only: false },
        { name: 'wallet', read_only: true },
      ],
      ip_whitelist: ['127.0.0.1', '10.0.0.8'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'bot', mode: 1, ip_whitelist: ['127.0.0.1', '10.0.0.8'], state: 1 });
    expect(created.body.key).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.secret).toMatch(/^[0-9a-f]{64}$/);
    const key = created.body.key as string;
    const list = await api<Rec[]>(sb, main, 'GET', '/sub_accounts/10000002/keys');
    expect(list.body.map((k) => k.key)).toContain(key);
    expect(list.body.every((k) => !('secret' in k))).toBe(true);
    const one = await api<Rec>(sb, main, 'GET', `/sub_accounts/10000002/keys/${key}`);
    expect(one.body).not.toHaveProperty('secret');
    expect(one.body.perms).toEqual([
      { name: 'spot', read_only: false },
      { name: 'wallet', read_only: true },
    ]);
    const upd = await api(sb, main, 'PUT', `/sub_accounts/10000002/keys/${key}`, {
      name: 'bot2',
      perms: [{ name: 'wallet', read_only: false }],
    });
    expect(upd.status).toBe(204);
    const after = await api<Rec>(sb, main, 'GET', `/sub_accounts/10000002/keys/${key}`);
    expect(after.body).toMatchObject({ name: 'bot2', ip_whitelist: [], perms: [{ name: 'wallet', read_only: false }] });
    const mode = await api<Err>(sb, main, 'PUT', `/sub_accounts/10000002/keys/${key}`, { mode: 2 });
    expect(mode.body.label).toBe('INVALID_PARAM_VALUE');
    expect((await api(sb, main, 'DELETE', `/sub_accounts/10000002/keys/${key}`)).status).toBe(204);
    expect((await api<Err>(sb, main, 'GET', `/sub_accounts/10000002/keys/${key}`)).body.label).toBe('NOT_FOUND');
    // A key of another sub-account is not reachable through this one.
    expect((await api<Err>(sb, main, 'GET', `/sub_accounts/10000003/keys/${sb.key}`)).body.label).toBe('NOT_FOUND');
  });

  it('validates key bodies', async () => {
    const k = (b: Rec) => api<Err>(sb, main, 'POST', '/sub_accounts/10000002/keys', b);
    expect((await k({ perms: [{ name: 'withdrawal', read_only: false }] })).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await k({ perms: 'all' })).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await k({ ip_whitelist: ['10.0.0.0/8'] })).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await k({ ip_whitelist: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect((await k({ mode: 3 })).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await api<Err>(sb, main, 'POST', '/sub_accounts/42/keys', {})).body.label).toBe('SUB_ACCOUNT_NOT_FOUND');
  });

  it('reports unified mode of sub-accounts', async () => {
    const res = await api<Rec[]>(sb, main, 'GET', '/sub_accounts/unified_mode');
    expect(res.body[0]).toEqual({ user_id: 10000002, is_unified: false, mode: 'classic' });
  });

  it('refuses sub-account keys and keys without the account permission', async () => {
    const sub = (
      await controlAnswer<Credentials>(sb, 'POST', '/keys', {
        user_id: 10000002,
        perms: [{ name: 'account', read_only: false }],
      })
    ).body;
    expect((await api<Err>(sb, sub, 'GET', '/sub_accounts')).body.label).toBe('FORBIDDEN');
    const walletOnly = (
      await controlAnswer<Credentials>(sb, 'POST', '/keys', {
        user_id: sb.userId,
        perms: [{ name: 'wallet', read_only: false }],
      })
    ).body;
    expect((await api<Err>(sb, walletOnly, 'POST', '/sub_accounts', { login_name: 'nope_nope' })).body.label).toBe(
      'FORBIDDEN',
    );
  });
});
