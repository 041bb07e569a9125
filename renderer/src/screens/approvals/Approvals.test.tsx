import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Approval } from '../../../../shared/contract/policies';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import ApprovalsScreen, { durationWords } from '.';

afterEach(cleanup);

const HOUR = 3_600_000;
const operator = (id: string, name: string, role: 'maker' | 'approver' | 'admin') => ({
  id,
  name,
  role,
  createdAt: 1,
  createdBy: '',
});
const session = (op: ReturnType<typeof operator> | null) => ({
  setupNeeded: false,
  operator: op,
  lock: { state: 'unlocked' as const },
});

const pending = (over: Partial<Approval> = {}): Approval => ({
  id: 'ap_1',
  profileId: 'local-sandbox',
  kind: 'withdrawal',
  state: 'pending',
  currency: 'USDT',
  amount: '2500',
  usdtValue: '2500',
  destination: 'TXYZ1234567890ABCD on TRX',
  to: { chain: 'TRX', address: 'TXYZ1234567890ABCD' },
  summary: 'Withdraw 2,500 USDT to TXYZ1234567890ABCD (TRX)',
  reasons: ['Worth 2,500 USDT, above the approval threshold of 1,000 USDT.'],
  makerId: 'op_maker',
  makerName: 'Mia Maker',
  createdAt: Date.now() - 60_000,
  expiresAt: Date.now() + 2 * HOUR,
  ...over,
});

describe('Approvals', () => {
  it('shows a pending item with maker, amount, destination, reasons and its countdown; approving needs a reason', async () => {
    const desk = installFakeDesk({
      'operators.current': () => session(operator('op_appr', 'Avi Approver', 'approver')),
      'approvals.list': () => ({ approvals: [pending()] }),
      'balances.spot': () => [{ currency: 'USDT', available: '3000', locked: '0', total: '3000' }],
      'funding.savedAddresses': () => [
        { currency: 'USDT', chain: 'TRX', address: 'TXYZ1234567890ABCD', name: 'OTC desk (TRC20)', verified: true },
      ],
      'approvals.approve': ({ id, reason }) => ({ ...pending(), id, state: 'sent', reason, decidedBy: 'Avi Approver' }),
    });
    renderWithQuery(<ApprovalsScreen />);
    const item = await screen.findByTestId('approval-ap_1');
    // Named as the address book names it, the address in groups, the balance after it.
    await waitFor(() =>
      expect(within(item).getByTestId('approval-summary').textContent).toBe('Withdraw 2,500 USDT to OTC desk (TRC20)'),
    );
    expect(within(item).getByTestId('approval-destination-label').textContent).toBe('OTC desk (TRC20) · TRX');
    expect(within(item).getByTestId('approval-destination').textContent).toBe('TXYZ1234567890ABCD');
    expect(within(item).getByTestId('approval-destination').querySelectorAll('.long-id-group')).toHaveLength(5);
    expect(within(item).getByTestId('approval-balance-after').textContent).toBe(
      '500 USDT (now 3,000 USDT, before the fee)',
    );
    expect(within(item).getByTestId('approval-flags').textContent).toBe('');
    expect(within(item).getByTestId('approval-maker').textContent).toContain('Mia Maker');
    expect(within(item).getByTestId('approval-amount').textContent).toBe('2,500 USDT');
    expect(within(item).getByTestId('approval-reasons').textContent).toContain('above the approval threshold');
    expect(within(item).getByTestId('approval-expires').textContent).toMatch(/^Expires in (1 h 59|2 h 00) min$/);
    // The approver is signed in: no sign-in form, the session is named.
    expect(screen.queryByTestId('approver-sign-in')).toBeNull();
    expect(screen.getByTestId('approvals-operator').textContent).toContain(
      'This desk’s session: Avi Approver (Approver)',
    );

    await userEvent.click(within(item).getByTestId('approval-approve'));
    expect(within(item).getByText('Give a reason (it is kept in the audit log).')).toBeTruthy();
    expect(desk.callsOf('approvals.approve')).toEqual([]);
    await enterText(within(item).getByTestId('approval-reason'), 'Invoice 4411 checked');
    await userEvent.click(within(item).getByTestId('approval-approve'));
    expect(desk.callsOf('approvals.approve')).toEqual([{ id: 'ap_1', reason: 'Invoice 4411 checked' }]);
  });

  it('shows main’s refusal at the item it is about', async () => {
    installFakeDesk({
      'operators.current': () => session(operator('op_appr', 'Avi Approver', 'approver')),
      'approvals.list': () => ({ approvals: [pending()] }),
      'approvals.approve': () => {
        throw {
          code: 'POLICY',
          message: 'Withdraw 2,500 USDT … was refused by the policy: above the 24-hour limit.',
          advice: 'Nothing was sent.',
        };
      },
    });
    renderWithQuery(<ApprovalsScreen />);
    const item = await screen.findByTestId('approval-ap_1');
    await userEvent.type(within(item).getByTestId('approval-reason'), 'ok');
    await userEvent.click(within(item).getByTestId('approval-approve'));
    expect((await within(item).findByTestId('approval-error')).textContent).toContain(
      'above the 24-hour limit. Nothing was sent.',
    );
  });

  it('flags a new destination, one not in the address book and more than the balance', async () => {
    installFakeDesk({
      'operators.current': () => session(operator('op_appr', 'Avi Approver', 'approver')),
      'approvals.list': () => ({ approvals: [pending({ newDestination: true, amount: '5000' })] }),
      'balances.spot': () => [{ currency: 'USDT', available: '3000', locked: '0', total: '3000' }],
      'funding.savedAddresses': () => [],
    });
    renderWithQuery(<ApprovalsScreen />);
    const item = await screen.findByTestId('approval-ap_1');
    await waitFor(() =>
      expect(within(item).getByTestId('approval-flags').textContent).toBe(
        'New destinationNot in the address bookMore than the balance',
      ),
    );
    expect(within(item).getByTestId('approval-destination-label').textContent).toBe('TRX');
    expect(within(item).getByTestId('approval-summary').textContent).toBe('Withdraw 5,000 USDT on TRX');
    expect(within(item).getByTestId('approval-balance-after').textContent).toContain('-2,000 USDT');
  });

  it('the maker cannot approve their own item and may retract it; switching to an approver is a dialog that says the desk’s session switches', async () => {
    const desk = installFakeDesk({
      'operators.current': () => session(operator('op_maker', 'Mia Maker', 'maker')),
      'approvals.list': () => ({ approvals: [pending()] }),
      'approvals.retract': ({ id, reason }) => ({ ...pending(), id, state: 'cancelled', reason }),
      'operators.signIn': () => session(operator('op_appr', 'Avi Approver', 'approver')),
    });
    renderWithQuery(<ApprovalsScreen />);
    const item = await screen.findByTestId('approval-ap_1');
    expect(within(item).getByTestId('approval-own').textContent).toContain('You can retract it');
    expect((within(item).getByTestId('approval-approve') as HTMLButtonElement).disabled).toBe(true);
    expect(within(item).queryByTestId('approval-reject')).toBeNull();
    await userEvent.click(within(item).getByTestId('approval-retract'));
    expect(within(item).getByText('Give a reason (it is kept in the audit log).')).toBeTruthy();
    await enterText(within(item).getByTestId('approval-reason'), 'Wrong address');
    await userEvent.click(within(item).getByTestId('approval-retract'));
    expect(desk.callsOf('approvals.retract')).toEqual([{ id: 'ap_1', reason: 'Wrong address' }]);

    // No form above the queue: a button opens the dialog, which says whose session changes.
    expect(screen.queryByTestId('approver-sign-in')).toBeNull();
    await userEvent.click(screen.getByTestId('approver-switch'));
    const form = await screen.findByTestId('approver-sign-in');
    expect(form.textContent).toContain('the desk’s session switches from Mia Maker to them, on every screen');
    await enterText(within(form).getByTestId('approver-name'), 'Avi Approver');
    await enterText(within(form).getByTestId('approver-passphrase'), 'approver passphrase 1');
    await userEvent.click(within(form).getByTestId('approver-sign-in-submit'));
    expect(desk.callsOf('operators.signIn')).toEqual([{ name: 'Avi Approver', passphrase: 'approver passphrase 1' }]);
  });

  it('lists decided items with their outcome, and refreshes on approvals.changed', async () => {
    let approvals: Approval[] = [pending()];
    const desk = installFakeDesk({
      'operators.current': () => session(operator('op_appr', 'Avi Approver', 'admin')),
      'approvals.list': () => ({ approvals }),
    });
    renderWithQuery(<ApprovalsScreen />);
    await screen.findByTestId('approval-ap_1');
    approvals = [
      pending({ state: 'sent', decidedBy: 'Avi Approver', decidedAt: Date.now(), reason: 'Invoice checked' }),
      pending({ id: 'ap_2', state: 'rejected', decidedBy: 'Mia Maker', decidedAt: Date.now(), reason: 'Not needed' }),
      pending({ id: 'ap_3', state: 'failed', outcome: 'The platform refused it: not enough balance.' }),
      pending({
        id: 'ap_4',
        kind: 'batch',
        state: 'cancelled',
        decidedBy: 'Mia Maker',
        decidedAt: Date.now(),
        reason: 'The batch was cancelled in Bulk by Mia Maker.',
      }),
    ];
    desk.emit('approvals.changed', { id: 'ap_1', state: 'sent' });
    const table = await screen.findByTestId('approvals-decided');
    expect(screen.queryByTestId('approval-ap_1')).toBeNull();
    expect(within(table).getByTestId('approval-state-ap_1').textContent).toContain('Approved and sent');
    expect(within(table).getByTestId('approval-state-ap_2').textContent).toContain('Rejected — never sent');
    expect(within(table).getByTestId('approval-state-ap_3').textContent).toContain('not enough balance');
    // A batch cancelled in Bulk while it waited: retracted, with who cancelled it.
    expect(within(table).getByTestId('approval-state-ap_4').textContent).toContain('Retracted — never sent');
    expect(table.textContent).toContain('The batch was cancelled in Bulk by Mia Maker.');
    expect(table.textContent).toContain('Invoice checked');
  });

  it('shows at once an item approvals.changed carries (a team movement prepared on another desk), before the list is read again', async () => {
    let reads = 0;
    const desk = installFakeDesk({
      'operators.current': () => session(operator('op_appr', 'Avi Approver', 'admin')),
      // The first read answers; the one the event starts never does (a slow list on a loaded desk).
      'approvals.list': () => (reads++ === 0 ? { approvals: [pending()] } : new Promise<never>(() => {})),
    });
    renderWithQuery(<ApprovalsScreen />);
    await screen.findByTestId('approval-ap_1');
    desk.emit('approvals.changed', {
      id: 'ap_tm-2',
      state: 'pending',
      approval: pending({ id: 'ap_tm-2', amount: '77' }),
    });
    expect(await screen.findByTestId('approval-ap_tm-2')).toBeTruthy();
    expect(screen.getByTestId('approval-ap_1')).toBeTruthy();
  });

  it('a control change shows each line before → after and says four eyes are in force; twin items are marked possible duplicates', async () => {
    installFakeDesk({
      'operators.current': () => session(operator('op_bea', 'Bea', 'admin')),
      'approvals.fourEyes': () => ({
        inForce: true,
        administrators: 2,
        reason: 'Four eyes are in force: this desk has 2 administrators.',
        operatorCoolingOffHours: 72,
      }),
      'approvals.list': () => ({
        approvals: [
          pending({
            id: 'ap_c',
            kind: 'control',
            currency: '',
            amount: '',
            destination: 'Change the role of mallory',
            summary: 'Change the role of mallory',
            reasons: ['A control change: another administrator approves it (four eyes).'],
            makerId: 'op_ada',
            makerName: 'Ada',
            control: {
              kind: 'operators.changeRole',
              title: 'Change the role of mallory',
              changes: [{ label: 'Role of mallory', before: 'Viewer', after: 'Administrator' }],
            },
          }),
          pending({ id: 'ap_a', possibleDuplicateOf: 'ap_b' }),
          pending({ id: 'ap_b', possibleDuplicateOf: 'ap_a' }),
        ],
      }),
    });
    renderWithQuery(<ApprovalsScreen />);
    expect((await screen.findByTestId('four-eyes')).getAttribute('data-in-force')).toBe('true');
    const control = await screen.findByTestId('approval-ap_c');
    expect(within(control).getByTestId('approval-changes').textContent).toBe('Role of mallory: Viewer → Administrator');
    expect(within(control).queryByTestId('approval-amount')).toBeNull();
    expect(within(control).getByTestId('approval-approve').textContent).toBe('Approve and apply');
    expect(within(screen.getByTestId('approval-ap_a')).getByTestId('approval-duplicate').textContent).toContain(
      'Possible duplicate',
    );
    expect(within(control).queryByTestId('approval-duplicate')).toBeNull();
  });

  it('counts time down in words', () => {
    expect(durationWords(2 * HOUR + 5 * 60_000)).toBe('2 h 05 min');
    expect(durationWords(4 * 60_000 + 5_000)).toBe('4 min 05 s');
    expect(durationWords(12_000)).toBe('12 s');
    expect(durationWords(-5)).toBe('0 s');
  });
});
