import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../shared/contract/operators';
import { installFakeDesk, renderWithQuery } from '../lib/testing/fakeDesk';
import { AuditIntegrityBanner } from './AuditIntegrityBanner';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'desk');
});

const FAILED = {
  ok: false,
  checkedAt: 1,
  problem: 'The audit log holds 3 entries, but it held 5 (up to entry 5): entries at its end were deleted.',
  signingKey: 'abcd abcd abcd abcd abcd abcd abcd abcd',
};
const PASSED = { ok: true, checkedAt: 2, entries: 7, signingKey: FAILED.signingKey };

const desk = (role: OperatorRole) =>
  installFakeDesk({
    'activity.auditIntegrity': () => FAILED,
    'activity.acknowledgeAuditFailure': () => PASSED,
    'operators.current': () => ({
      setupNeeded: false,
      operator: { id: 'o1', name: 'Ann', role, createdAt: 1, createdBy: '' },
      lock: { state: 'unlocked' },
    }),
  });

describe('the failed audit check on every screen', () => {
  it('says what failed; a viewer is told an administrator must acknowledge it', async () => {
    desk('viewer');
    renderWithQuery(<AuditIntegrityBanner />);
    expect((await screen.findByTestId('audit-integrity-problem')).textContent).toBe(FAILED.problem);
    expect(screen.getByTestId('audit-integrity-banner').textContent).toContain('An administrator must look at it');
    expect(screen.queryByTestId('audit-acknowledge-open')).toBeNull();
  });

  it('an administrator acknowledges it with a note; it goes once main says the log is protected again', async () => {
    const fake = desk('admin');
    renderWithQuery(<AuditIntegrityBanner />);
    await userEvent.click(await screen.findByTestId('audit-acknowledge-open'));
    await userEvent.type(screen.getByLabelText('What you found (kept in the log)'), 'Two entries lost.');
    await userEvent.click(screen.getByTestId('audit-acknowledge'));
    expect(fake.callsOf('activity.acknowledgeAuditFailure')).toEqual([{ note: 'Two entries lost.' }]);
    await expect.poll(() => screen.queryByTestId('audit-integrity-banner')).toBeNull();
  });

  it('follows main’s events: a failure found later shows at once', async () => {
    const fake = installFakeDesk({ 'activity.auditIntegrity': () => PASSED });
    renderWithQuery(<AuditIntegrityBanner />);
    await expect.poll(() => fake.callsOf('activity.auditIntegrity').length).toBe(1);
    expect(screen.queryByTestId('audit-integrity-banner')).toBeNull();
    fake.emit('activity.auditIntegrityChanged', FAILED);
    expect((await screen.findByTestId('audit-integrity-problem')).textContent).toBe(FAILED.problem);
  });
});
