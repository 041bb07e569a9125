import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy, type PolicyInput } from '../../../../shared/contract/policies';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import { draftOf, inputOf, PoliciesPanel, problemsOf } from './PoliciesPanel';

afterEach(cleanup);

const session = (role: 'maker' | 'admin') => ({
  setupNeeded: false,
  operator: { id: `op_${role}`, name: role === 'admin' ? 'Ada Admin' : 'Mia Maker', role, createdAt: 1, createdBy: '' },
  lock: { state: 'unlocked' as const },
});

const STORED: Policy = {
  ...DEFAULT_POLICY,
  approval: { ...DEFAULT_POLICY.approval, operatorCoolingOffHours: 72 },
  review: { typedConfirmAbove: { USDT: '1000' } },
  limits: { BTC: { perTransaction: '1', rolling24h: '3' } },
  allowlist: {
    required: true,
    coolingOffHours: 24,
    entries: [
      {
        currency: 'USDT',
        chain: 'TRX',
        address: 'TXYZ1234567890abcdef',
        label: 'OTC desk',
        addedAt: 1_700_000_000_000,
      },
    ],
  },
};

/** A main that keeps the policy it is given, like the core (main stamps new entries). */
const fakeMain = (role: 'maker' | 'admin' = 'admin', policy: Policy = STORED) => {
  let stored = policy;
  let updatedAt: number | undefined;
  return installFakeDesk({
    'operators.current': () => session(role),
    'policies.get': () => ({
      profileId: 'local-sandbox',
      policy: stored,
      ...(updatedAt ? { updatedAt, updatedBy: 'Ada Admin' } : {}),
    }),
    'policies.set': (input) => {
      stored = {
        ...input,
        allowlist: {
          ...input.allowlist,
          entries: input.allowlist.entries.map((e) => ({ ...e, addedAt: 1_800_000_000_000 })),
        },
      } as Policy;
      updatedAt = Date.now();
      return { profileId: 'local-sandbox', policy: stored, updatedAt, updatedBy: 'Ada Admin' };
    },
  });
};

describe('Settings → Policies', () => {
  it('shows the stored policy; an admin changes it and main gets exactly the PolicyInput (no addedAt)', async () => {
    const desk = fakeMain();
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    expect((within(form).getByTestId('policy-limit-currency-0') as HTMLInputElement).value).toBe('BTC');
    expect((within(form).getByTestId('policy-entry-label-0') as HTMLInputElement).value).toBe('OTC desk');
    await enterText(within(form).getByTestId('policy-usdt-per'), '10000');
    await userEvent.type(within(form).getByTestId('policy-above-usdt'), '1000');
    await userEvent.click(within(form).getByTestId('policy-any-push'));
    await userEvent.click(within(form).getByTestId('policy-add-entry'));
    await enterText(within(form).getByTestId('policy-entry-label-1'), 'Cold wallet');
    await userEvent.type(within(form).getByTestId('policy-entry-currency-1'), 'btc');
    await userEvent.type(within(form).getByTestId('policy-entry-chain-1'), 'btc');
    await enterText(within(form).getByTestId('policy-entry-address-1'), 'bc1qexampleaddress0000000000');
    await userEvent.click(within(form).getByTestId('policy-save'));
    const expected: PolicyInput = {
      limits: { BTC: { perTransaction: '1', rolling24h: '3' } },
      usdtLimits: { perTransaction: '10000' },
      allowlist: {
        required: true,
        coolingOffHours: 24,
        entries: [
          { currency: 'USDT', chain: 'TRX', address: 'TXYZ1234567890abcdef', label: 'OTC desk' },
          { currency: 'BTC', chain: 'BTC', address: 'bc1qexampleaddress0000000000', label: 'Cold wallet' },
        ],
      },
      approval: {
        aboveUsdt: '1000',
        newDestination: false,
        anyPush: true,
        approveBatchesAsAWhole: false,
        expiresHours: 24,
        operatorCoolingOffHours: 72,
      },
      review: { typedConfirmAbove: { USDT: '1000' } },
    };
    expect(desk.callsOf('policies.set')).toEqual([expected]);
    expect(await screen.findByTestId('policy-saved')).toBeTruthy();
    expect((await screen.findByTestId('policy-updated')).textContent).toContain('by Ada Admin');
  });

  it('the switch “a bulk batch waits as one item” shows the stored flag, explains itself and is saved with the policy', async () => {
    const desk = fakeMain('admin', { ...STORED, approval: { ...STORED.approval, approveBatchesAsAWhole: true } });
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    const toggle = within(form).getByTestId('policy-batches-whole') as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(within(form).getByLabelText('A bulk batch that needs approval waits as one item')).toBe(toggle);
    const hint = document.getElementById(toggle.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toMatch(
      /One approver approves the whole batch .* each row that needs approval waits on its own/,
    );

    await userEvent.click(toggle);
    await userEvent.click(within(form).getByTestId('policy-save'));
    expect(desk.callsOf('policies.set').at(-1)?.approval).toEqual({
      newDestination: false,
      anyPush: false,
      approveBatchesAsAWhole: false,
      expiresHours: 24,
      operatorCoolingOffHours: 72,
    });
    expect(await screen.findByTestId('policy-saved')).toBeTruthy();

    // The form starts again from what main stored (unchecked); turned back on, it is sent as true.
    await screen.findByTestId('policy-updated');
    const again = screen.getByTestId('policy-form');
    const reloaded = within(again).getByTestId('policy-batches-whole') as HTMLInputElement;
    expect(reloaded.checked).toBe(false);
    await userEvent.click(reloaded);
    await userEvent.click(within(again).getByTestId('policy-save'));
    expect(desk.callsOf('policies.set')).toHaveLength(2);
    expect(desk.callsOf('policies.set').at(-1)?.approval.approveBatchesAsAWhole).toBe(true);
  });

  it('bad input is refused at its field by the contract’s schema; nothing is sent', async () => {
    const desk = fakeMain();
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    await userEvent.type(within(form).getByTestId('policy-usdt-rolling'), '1e6');
    await userEvent.clear(within(form).getByTestId('policy-expires'));
    await userEvent.type(within(form).getByTestId('policy-expires'), '0');
    await userEvent.clear(within(form).getByTestId('policy-entry-label-0'));
    await userEvent.click(within(form).getByTestId('policy-window-on'));
    await userEvent.clear(within(form).getByTestId('policy-window-to'));
    await userEvent.click(within(form).getByTestId('policy-save'));
    expect(desk.callsOf('policies.set')).toEqual([]);
    const errorOf = (testId: string) =>
      document.getElementById(within(form).getByTestId(testId).getAttribute('aria-describedby')?.split(' ').pop() ?? '')
        ?.textContent;
    expect(errorOf('policy-usdt-rolling')).toMatch(/Use digits/);
    expect(errorOf('policy-expires')).toBe('At least 1 hour');
    expect(errorOf('policy-entry-label-0')).toBe('Give the address a label');
    expect(errorOf('policy-window-to')).toBe('Enter a time as HH:MM');
    expect(within(form).getByTestId('policy-invalid').textContent).toContain('4 fields need attention');
  });

  it('shows main’s refusal at the field it names', async () => {
    installFakeDesk({
      'operators.current': () => session('admin'),
      'policies.get': () => ({ profileId: 'local-sandbox', policy: DEFAULT_POLICY }),
      'policies.set': () => {
        throw {
          code: 'INVALID_INPUT',
          message: 'The policy was not changed: The per-transaction limit is above the 24-hour limit.',
          fields: { 'usdtLimits.perTransaction': 'The per-transaction limit is above the 24-hour limit.' },
        };
      },
    });
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    await userEvent.type(within(form).getByTestId('policy-usdt-per'), '500');
    await userEvent.type(within(form).getByTestId('policy-usdt-rolling'), '100');
    await userEvent.click(within(form).getByTestId('policy-save'));
    expect(await within(form).findByText('The per-transaction limit is above the 24-hour limit.')).toBeTruthy();
    expect(within(form).getByTestId('policy-error').textContent).toContain('The policy was not changed');
  });

  it('is read-only for anyone but an administrator', async () => {
    const desk = fakeMain('maker');
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    expect(screen.getByTestId('policy-admin-only').textContent).toContain('Only an administrator');
    expect((within(form).getByTestId('policy-usdt-per') as HTMLInputElement).closest('fieldset')?.disabled).toBe(true);
    expect((within(form).getByTestId('policy-batches-whole') as HTMLInputElement).closest('fieldset')?.disabled).toBe(
      true,
    );
    expect((within(form).getByTestId('policy-save') as HTMLButtonElement).disabled).toBe(true);
    expect(desk.callsOf('policies.set')).toEqual([]);
  });

  it('the review threshold and the operators’ cooling-off are part of the policy; with four eyes in force the change waits and the panel says so', async () => {
    const desk = installFakeDesk({
      'operators.current': () => session('admin'),
      'policies.get': () => ({ profileId: 'local-sandbox', policy: STORED }),
      'approvals.fourEyes': () => ({
        inForce: true,
        administrators: 2,
        reason: 'Four eyes are in force: this desk has 2 administrators.',
        operatorCoolingOffHours: 72,
      }),
      'policies.set': () => {
        throw { code: 'AWAITING_APPROVAL', message: 'Waiting for approval (ap_1).' };
      },
    });
    renderWithQuery(<PoliciesPanel />);
    const form = await screen.findByTestId('policy-form');
    expect((await screen.findByTestId('four-eyes')).textContent).toContain('Four eyes are in force');
    expect((within(form).getByTestId('policy-review-above-0') as HTMLInputElement).value).toBe('1000');
    await userEvent.clear(within(form).getByTestId('policy-review-above-0'));
    await userEvent.type(within(form).getByTestId('policy-review-above-0'), '5000');
    await userEvent.clear(within(form).getByTestId('policy-operator-cooling'));
    await userEvent.type(within(form).getByTestId('policy-operator-cooling'), '96');
    await userEvent.click(within(form).getByTestId('policy-save'));
    const sent = desk.callsOf('policies.set').at(-1);
    expect(sent?.review).toEqual({ typedConfirmAbove: { USDT: '5000' } });
    expect(sent?.approval.operatorCoolingOffHours).toBe(96);
    expect((await screen.findByTestId('policy-queued')).textContent).toContain('waits for another administrator');
    expect(screen.queryByTestId('policy-error')).toBeNull();
    expect(screen.queryByTestId('policy-saved')).toBeNull();
  });

  it('a stored policy reads back into the same input', () => {
    const input = inputOf(draftOf(STORED));
    expect(problemsOf(input)).toEqual({});
    expect(input).toEqual({
      ...STORED,
      allowlist: { ...STORED.allowlist, entries: STORED.allowlist.entries.map(({ addedAt: _a, ...e }) => e) },
    });
  });
});
