import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usePrefs } from '../lib/prefs';
import { installFakeDesk, renderWithQuery } from '../lib/testing/fakeDesk';
import { SandboxBanner, SetupChecklist } from './SetupChecklist';

afterEach(cleanup);
beforeEach(() => usePrefs.getState().reset());

const sandbox = {
  id: 'sb',
  kind: 'sandbox',
  name: 'Local sandbox',
  baseUrl: 'http://x/api/v4',
  active: true,
  managed: true,
};
const admin = {
  setupNeeded: false,
  operator: { id: 'op1', name: 'Ada', role: 'admin', createdAt: 0, createdBy: '' },
  lock: { state: 'unlocked' },
};
const noPolicy = {
  profileId: 'sb',
  policy: {
    limits: {},
    usdtLimits: {},
    allowlist: { required: false, coolingOffHours: 24, entries: [] },
    approval: { newDestination: false, anyPush: false, expiresHours: 24 },
  },
};

describe('first run', () => {
  it('says the sandbox across the window, in words', async () => {
    installFakeDesk({ 'profiles.list': () => [sandbox] });
    renderWithQuery(<SandboxBanner />);
    expect((await screen.findByTestId('sandbox-banner')).textContent).toContain('Sandbox: paper money.');
  });

  it('lists the set-up steps for the administrator, each done when the desk says so, and can be put away', async () => {
    const user = userEvent.setup();
    installFakeDesk({
      'operators.current': () => admin,
      'profiles.list': () => [sandbox],
      'operators.list': () => [admin.operator, { ...admin.operator, id: 'op2', name: 'Maya', role: 'maker' }],
      'policies.get': () => noPolicy,
    });
    renderWithQuery(<SetupChecklist />);
    await screen.findByTestId('setup-checklist');
    expect(screen.getByTestId('setup-step-profile').getAttribute('data-done')).toBe('false');
    expect(screen.getByTestId('setup-step-operators').getAttribute('data-done')).toBe('true');
    expect(screen.getByTestId('setup-step-policies').textContent).toContain('approvals above 10,000 USDT');
    await user.click(screen.getByRole('button', { name: 'Hide this list' }));
    await waitFor(() => expect(screen.queryByTestId('setup-checklist')).toBeNull());
  });

  it('is not shown to an operator who is not the administrator', async () => {
    installFakeDesk({ 'operators.current': () => ({ ...admin, operator: { ...admin.operator, role: 'maker' } }) });
    renderWithQuery(<SetupChecklist />);
    await waitFor(() => expect(screen.queryByTestId('setup-checklist')).toBeNull());
  });
});
