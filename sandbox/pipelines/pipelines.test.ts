import { describe, expect, it } from 'vitest';
import { isWithdrawalCancellable } from '../../shared/platform/statusTables';
import { checkedRoutes, DEPOSIT_ROUTES, PUSH_ROUTES, WITHDRAWAL_ROUTES } from './pipelines';

// The routes follow the one status table per record kind (shared/platform/statusTables.ts).
describe('pipeline routes and the status tables', () => {
  it("the sandbox's own routes pass the check as the module loads", () => {
    expect(Object.keys(WITHDRAWAL_ROUTES).length).toBeGreaterThan(5);
    expect(Object.keys(DEPOSIT_ROUTES).length).toBeGreaterThan(3);
    expect(Object.keys(PUSH_ROUTES).length).toBe(3);
  });

  it('refuses a route that disagrees with the table, naming the route and the status', () => {
    const S = 1000;
    expect(() => checkedRoutes('withdrawal', { short: [{ status: 'REQUEST', ms: S }, { status: 'EXTPEND' }] })).toThrow(
      'sandbox withdrawal route "short", EXTPEND: the route ends on a status that is not final',
    );
    expect(() =>
      checkedRoutes('withdrawal', {
        twice: [{ status: 'DONE', ms: S }, { status: 'REQUEST', ms: S }, { status: 'DONE' }],
      }),
    ).toThrow('sandbox withdrawal route "twice", DONE: a final status before the end');
    expect(() => checkedRoutes('deposit', { slow: [{ status: 'PEND' }, { status: 'DONE' }] })).toThrow(
      'sandbox deposit route "slow", PEND: a status that is not final needs a duration',
    );
    expect(() => checkedRoutes('push', { odd: [{ status: 'SENT', ms: S }, { status: 'RECEIVED' }] })).toThrow(
      'sandbox push route "odd", SENT: not a push status of the spec',
    );
  });

  it('accepts a cancellation in the statuses the app offers Cancel for, and only those', () => {
    const cancellable = ['REQUEST', 'VERIFY', 'REVIEW', 'MANUAL', 'DMOVE', 'FVERIFY'];
    for (const status of cancellable) expect(isWithdrawalCancellable(status), status).toBe(true);
    for (const status of ['LOCKED', 'PEND', 'PROCES', 'EXTPEND', 'DONE', 'CANCELPEND', 'CANCEL', 'SPLITPEND'])
      expect(isWithdrawalCancellable(status), status).toBe(false);
  });
});
