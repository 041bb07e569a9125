import { describe, expect, it } from 'vitest';
import { SubAccount, SubAccountKey } from '../../shared/platform/api/subAccounts';
import { subKeyEntry, toKeyView, toPermMatrix, toPlatformPerms, toSubAccountView } from './views';

describe('sub-account view', () => {
  it('maps state 1/2 and type 1/3 and keeps unknown values visible as unknown', () => {
    const raw = (state: number, type: number) =>
      SubAccount.parse({ login_name: 'desk', user_id: '1000002', state, type, create_time: 1_700_000_000 });
    expect(toSubAccountView(raw(1, 1))).toEqual({
      userId: 1000002,
      loginName: 'desk',
      state: 'normal',
      type: 'normal',
      createdAt: 1_700_000_000,
    });
    expect(toSubAccountView(raw(2, 3))).toMatchObject({ state: 'frozen', type: 'crossMargin' });
    expect(toSubAccountView(raw(9, 7))).toMatchObject({ state: 'unknown', type: 'unknown' });
  });
});

describe('permissions', () => {
  it('round-trips the matrix and leaves groups at none out of the request', () => {
    const matrix = { wallet: 'read', spot: 'write', futures: 'none' } as const;
    const perms = toPlatformPerms(matrix);
    expect(perms).toEqual([
      { name: 'wallet', read_only: true },
      { name: 'spot', read_only: false },
    ]);
    expect(toPermMatrix(perms)).toEqual({ wallet: 'read', spot: 'write' });
  });

  it('ignores names it does not know and keeps the widest access of a repeated group', () => {
    expect(
      toPermMatrix([
        { name: 'spot', read_only: false },
        { name: 'spot', read_only: true },
        { name: 'teleport', read_only: false },
      ]),
    ).toEqual({ spot: 'write' });
  });
});

describe('key view', () => {
  const now = 1_700_000_000_000 + 80 * 86_400_000;
  it('never carries a secret, even when the platform sends one', () => {
    const raw = SubAccountKey.parse({
      key: 'k'.repeat(32),
      secret: 's'.repeat(64),
      mode: 1,
      perms: [],
      ip_whitelist: null,
      state: 1,
      created_at: 1_700_000_000,
      last_access: 0,
    });
    const view = toKeyView(raw, 7, false, now);
    expect(JSON.stringify(view)).not.toContain('s'.repeat(64));
    expect(view).toMatchObject({ mode: 'classic', state: 'normal', ipWhitelist: [], createdAt: 1_700_000_000 });
    expect(view.lastAccess).toBeUndefined();
    expect(view.expiry).toMatchObject({ ipBound: false, level: 'warning', daysLeft: 10 });
  });

  it('maps unified mode, frozen and locked keys', () => {
    const base = { key: 'k'.repeat(32), perms: [], ip_whitelist: ['1.2.3.4'] };
    expect(toKeyView(SubAccountKey.parse({ ...base, mode: 2, state: 2 }), 7, true, now)).toMatchObject({
      mode: 'unified',
      state: 'frozen',
      secretInKeychain: true,
      expiry: { ipBound: true, level: 'none' },
    });
    expect(toKeyView(SubAccountKey.parse({ ...base, state: 3 }), 7, false, now).state).toBe('locked');
  });

  it('names keychain entries per profile, sub-account and key', () => {
    expect(subKeyEntry('p1', 7, 'abc')).toBe('sub-account-key:p1:7:abc');
  });
});
