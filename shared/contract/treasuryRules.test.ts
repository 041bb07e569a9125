import { describe, expect, it } from 'vitest';
import { ipv4Problem, keyExpiry, keys, whitelistProblems } from './keys';
import { loginNameProblem, subAccounts } from './subAccounts';
import { amountProblem, ownTransferNeeds, transfers } from './transfers';

const REQUEST_KEY = '3f2b8c1e-9d4a-4f6b-8a2c-5e7d9b1c3a40';
describe('transfer amount rules', () => {
  it.each([
    ['', 'Enter an amount.'],
    ['0', 'greater than 0'],
    ['0.00000000', 'greater than 0'],
    ['-1', 'at most one decimal point'],
    ['1e3', 'at most one decimal point'],
    ['1,5', 'at most one decimal point'],
    ['.5', 'at most one decimal point'],
    ['0.123456789', 'At most 8 decimals'],
  ])('refuses %j', (amount, fragment) => {
    expect(amountProblem(amount)).toContain(fragment);
  });

  it('accepts up to 8 decimals and exactly the available amount', () => {
    expect(amountProblem('0.00000001')).toBeUndefined();
    expect(amountProblem('12.5', '12.50000000')).toBeUndefined();
  });

  it('refuses more than available, compared as decimals not floats', () => {
    expect(amountProblem('0.30000001', '0.3')).toContain('more than the 0.3 available');
    expect(amountProblem('100000000000000000.00000002', '100000000000000000.00000001')).toContain('more than');
  });

  it('main refuses the same amounts through the contract schema', () => {
    const base = {
      kind: 'mainSub',
      direction: 'to',
      subUserId: 7,
      subAccountType: 'spot',
      currency: 'USDT',
      requestKey: REQUEST_KEY,
    };
    expect(transfers.send.input.safeParse({ ...base, amount: '1.123456789' }).success).toBe(false);
    expect(transfers.send.input.safeParse({ ...base, amount: '0' }).success).toBe(false);
    expect(transfers.send.input.safeParse({ ...base, amount: '1.12345678' }).success).toBe(true);
    // Every transfer carries its confirmation's request key (a UUID): without one nothing is sent.
    const { requestKey: _, ...keyless } = base;
    expect(transfers.send.input.safeParse({ ...keyless, amount: '1' }).success).toBe(false);
    expect(transfers.send.input.safeParse({ ...base, requestKey: 'click-1', amount: '1' }).success).toBe(false);
  });

  it('asks for the pair only with margin and for settle only with contracts', () => {
    expect(ownTransferNeeds('spot', 'options')).toEqual({ currencyPair: false, settle: false });
    expect(ownTransferNeeds('spot', 'margin')).toEqual({ currencyPair: true, settle: false });
    expect(ownTransferNeeds('futures', 'spot')).toEqual({ currencyPair: false, settle: true });
    expect(ownTransferNeeds('margin', 'delivery')).toEqual({ currencyPair: true, settle: true });
    const own = { kind: 'own', currency: 'USDT', amount: '1', from: 'spot', to: 'futures', requestKey: REQUEST_KEY };
    expect(transfers.send.input.safeParse(own).success).toBe(false);
    expect(transfers.send.input.safeParse({ ...own, settle: 'usdt' }).success).toBe(true);
    expect(transfers.send.input.safeParse({ ...own, to: 'spot' }).success).toBe(false);
  });
});

describe('login name rules', () => {
  it.each([
    ['', 'Enter a login name'],
    ['ops desk', 'Spaces'],
    ['ops-desk', 'Only letters'],
    ['opé_desk', 'Only letters'],
    ['1desk', 'Start with a letter'],
    ['abc', 'at least 4'],
    [`a${'b'.repeat(32)}`, 'at most 32'],
  ])('refuses %j', (name, fragment) => {
    expect(loginNameProblem(name)).toContain(fragment);
  });

  it('accepts letters, digits and underscore', () => {
    expect(loginNameProblem('Ops_desk_01')).toBeUndefined();
    expect(subAccounts.create.input.safeParse({ loginName: 'Ops_desk_01' }).success).toBe(true);
    expect(subAccounts.create.input.safeParse({ loginName: 'ops desk' }).success).toBe(false);
  });
});

describe('IP whitelist rules', () => {
  it.each([
    ['203.0.113.7', undefined],
    ['0.0.0.0', undefined],
    ['255.255.255.255', undefined],
    ['256.1.1.1', '0 and 255'],
    ['10.0.0', 'four numbers'],
    ['10.0.0.1.5', 'four numbers'],
    ['010.0.0.1', 'leading zeros'],
    ['10.0.0.0/24', 'Ranges'],
    ['10.0.0.1-10.0.0.9', 'Ranges'],
    ['::1', 'IPv6'],
    ['example.com', 'four numbers'],
    ['', 'Enter an IPv4'],
  ])('%j', (ip, fragment) => {
    const problem = ipv4Problem(ip);
    if (fragment === undefined) expect(problem).toBeUndefined();
    else expect(problem).toContain(fragment);
  });

  it('flags duplicates and more than 20 entries', () => {
    const dup = whitelistProblems(['1.1.1.1', '2.2.2.2', '1.1.1.1']);
    expect([...dup.entries]).toEqual([[2, 'Already in the list (entry 1).']]);
    const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i + 1}`);
    expect(whitelistProblems(many).list).toContain('At most 20');
    expect(whitelistProblems(many.slice(0, 20)).list).toBeUndefined();
  });

  it('main refuses a bad whitelist and a key without permissions', () => {
    const base = { userId: 5, name: 'bot', mode: 'classic', keepSecretInKeychain: false };
    expect(keys.create.input.safeParse({ ...base, perms: { spot: 'read' }, ipWhitelist: ['1.2.3.4'] }).success).toBe(
      true,
    );
    expect(keys.create.input.safeParse({ ...base, perms: { spot: 'read' }, ipWhitelist: ['1.2.3'] }).success).toBe(
      false,
    );
    expect(keys.create.input.safeParse({ ...base, perms: { spot: 'none' }, ipWhitelist: [] }).success).toBe(false);
  });
});

describe('90-day expiry of keys without IP binding', () => {
  const day = 86_400_000;
  const created = 1_700_000_000; // seconds
  it('does not apply to IP-bound keys', () => {
    expect(keyExpiry(['1.2.3.4'], created, created * 1000)).toEqual({ ipBound: true, level: 'none' });
  });
  it('counts down from creation and warns in the last 14 days', () => {
    expect(keyExpiry([], created, created * 1000 + 1)).toMatchObject({ daysLeft: 90, level: 'notice' });
    expect(keyExpiry([], created, created * 1000 + day)).toMatchObject({ daysLeft: 89, level: 'notice' });
    expect(keyExpiry([], created, created * 1000 + 75 * day + 1)).toMatchObject({ daysLeft: 15, level: 'notice' });
    expect(keyExpiry([], created, created * 1000 + 76 * day)).toMatchObject({ daysLeft: 14, level: 'warning' });
    expect(keyExpiry([], created, created * 1000 + 80 * day)).toMatchObject({ daysLeft: 10, level: 'warning' });
    expect(keyExpiry([], created, created * 1000 + 90 * day)).toMatchObject({ level: 'expired' });
  });
});
