import { describe, expect, it } from 'vitest';
import { isVerifiedFlag, savedAddressRefusal, VERIFY_ADVICE } from './savedAddresses';

describe('saved addresses the platform accepts', () => {
  it('refuses one that is neither verified nor used, saying what to do', () => {
    expect(savedAddressRefusal({ verified: false, previousWithdrawals: 0 })).toContain(VERIFY_ADVICE);
    expect(savedAddressRefusal({ verified: true, previousWithdrawals: 0 })).toBeUndefined();
    // The platform accepts an address a withdrawal already went to.
    expect(savedAddressRefusal({ verified: false, previousWithdrawals: 2 })).toBeUndefined();
  });

  it("reads the platform's verified flag: only 1 / true count", () => {
    for (const yes of ['1', 'true', 'TRUE', ' 1 ', 1, true]) expect(isVerifiedFlag(yes)).toBe(true);
    for (const no of ['0', 'false', '', undefined, null, 0, false, '2']) expect(isVerifiedFlag(no)).toBe(false);
  });
});
