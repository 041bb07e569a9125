import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Operator, OperatorRole } from '../../../../shared/contract/operators';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import { OperatorsPanel } from './OperatorsPanel';

afterEach(cleanup);

const ADA: Operator = {
  id: 'o1',
  name: 'Ada',
  role: 'admin',
  createdAt: 1,
  createdBy: '',
  lastSignInAt: Date.UTC(2026, 0, 5, 9),
};
const VAL: Operator = { id: 'o2', name: 'Val', role: 'viewer', createdAt: 2, createdBy: 'Ada' };

const session = (operator: Operator) => ({
  setupNeeded: false,
  operator,
  lock: { state: 'unlocked' as const, operator: operator.name },
});

/** A main with operators that keeps what it is told, and refuses what main refuses. */
const fakeMain = (me: Operator) => {
  const operators = [{ ...ADA }, { ...VAL }];
  return installFakeDesk({
    'operators.current': () => session(me),
    'operators.list': () => operators.map((o) => ({ ...o })),
    'operators.changeRole': ({ id, role }) => {
      const target = operators.find((o) => o.id === id)!;
      if (target.role === 'admin' && operators.filter((o) => o.role === 'admin').length === 1) {
        throw {
          code: 'PRECONDITION',
          message: 'The desk needs at least one administrator.',
          advice: 'Make another operator an administrator first.',
        };
      }
      Object.assign(target, { role });
      return target;
    },
    'operators.create': ({ name, role }) => {
      if (operators.some((o) => o.name.toLowerCase() === name.toLowerCase())) {
        throw { code: 'PRECONDITION', message: `There is already an operator named ${name}.` };
      }
      const created: Operator = { id: `o${operators.length + 1}`, name, role, createdAt: 3, createdBy: me.name };
      operators.push(created);
      return created;
    },
    'operators.changePassphrase': ({ current }) => {
      if (current !== 'the current passphrase') {
        throw {
          code: 'NOT_ALLOWED',
          label: 'WRONG_PASSPHRASE',
          message: 'That name and passphrase do not match an operator of this desk.',
        };
      }
      return { changed: true as const };
    },
  });
};

describe('Settings → Operators', () => {
  it('an administrator sees every operator with role and last sign-in', async () => {
    fakeMain(ADA);
    renderWithQuery(<OperatorsPanel />);
    expect((await screen.findByTestId('operators-me')).textContent).toContain(
      'You are signed in as Ada (Administrator)',
    );
    const table = await screen.findByTestId('operators-table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('Ada');
    expect(rows[2]?.textContent).toContain('Never');
    expect(rows[2]?.textContent).toContain('Ada'); // created by
    expect((screen.getByTestId('operator-role-Val') as HTMLSelectElement).value).toBe('viewer');
  });

  it('an operator whose sign-in waits after wrong passphrases shows until when; another administrator lifts it', async () => {
    const until = Date.UTC(2026, 0, 5, 10);
    let waiting = true;
    const desk = installFakeDesk({
      'operators.current': () => session(ADA),
      'operators.list': () => [ADA, { ...VAL, ...(waiting ? { lockedOutUntil: until } : {}) }],
      'operators.liftLockout': () => {
        waiting = false;
        return VAL;
      },
    });
    renderWithQuery(<OperatorsPanel />);
    expect((await screen.findByTestId('operator-waits-Val')).textContent).toContain('sign-in waits until');
    await userEvent.click(screen.getByTestId('operator-lift-Val'));
    expect(desk.callsOf('operators.liftLockout')).toEqual([{ id: VAL.id }]);
    await expect.poll(() => screen.queryByTestId('operator-waits-Val')).toBeNull();
    expect(screen.queryByTestId('operator-lift-Val')).toBeNull();
  });

  it('changes a role; demoting the last administrator shows main’s refusal at the field', async () => {
    const desk = fakeMain(ADA);
    renderWithQuery(<OperatorsPanel />);
    await userEvent.selectOptions(await screen.findByTestId('operator-role-Val'), 'maker');
    expect(desk.callsOf('operators.changeRole')).toEqual([{ id: 'o2', role: 'maker' }]);
    await expect.poll(() => (screen.getByTestId('operator-role-Val') as HTMLSelectElement).value).toBe('maker');

    await userEvent.selectOptions(screen.getByTestId('operator-role-Ada'), 'viewer' satisfies OperatorRole);
    const field = screen.getByTestId('operator-role-Ada');
    expect(await screen.findByText(/The desk needs at least one administrator/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect((field as HTMLSelectElement).value).toBe('admin');
  });

  it('creates an operator: name, role, passphrase twice with the strength rule', async () => {
    const desk = fakeMain(ADA);
    renderWithQuery(<OperatorsPanel />);
    await screen.findByTestId('operator-create');
    await userEvent.type(screen.getByTestId('operator-create-name'), 'Mo');
    await userEvent.selectOptions(screen.getByTestId('operator-create-role'), 'maker');
    expect(screen.getByTestId('operator-create-role-hint').textContent).toContain('sends withdrawals');
    await enterText(screen.getByTestId('operator-create-passphrase'), 'password12');
    await userEvent.click(screen.getByTestId('operator-create-submit'));
    expect(screen.getByText(/at least 12 characters/)).toBeTruthy();
    expect(desk.callsOf('operators.create')).toEqual([]);

    await userEvent.clear(screen.getByTestId('operator-create-passphrase'));
    await enterText(screen.getByTestId('operator-create-passphrase'), 'maker walks the ledger');
    await enterText(screen.getByTestId('operator-create-repeat'), 'maker walks the ledgr');
    await userEvent.click(screen.getByTestId('operator-create-submit'));
    expect(screen.getByText('The two passphrases differ')).toBeTruthy();
    expect(desk.callsOf('operators.create')).toEqual([]);

    await userEvent.type(screen.getByTestId('operator-create-repeat'), '{Backspace}er');
    await userEvent.click(screen.getByTestId('operator-create-submit'));
    expect((await screen.findByTestId('operator-created')).textContent).toContain('Mo can now sign in as maker');
    expect(desk.callsOf('operators.create')).toEqual([
      { name: 'Mo', role: 'maker', passphrase: 'maker walks the ledger' },
    ]);
    expect(await within(screen.getByTestId('operators-table')).findByText('Mo')).toBeTruthy();
  });

  it('a name already taken is refused at the name field', async () => {
    fakeMain(ADA);
    renderWithQuery(<OperatorsPanel />);
    await screen.findByTestId('operator-create');
    await userEvent.type(screen.getByTestId('operator-create-name'), 'val');
    await enterText(screen.getByTestId('operator-create-passphrase'), 'another long passphrase');
    await enterText(screen.getByTestId('operator-create-repeat'), 'another long passphrase');
    await userEvent.click(screen.getByTestId('operator-create-submit'));
    expect(await screen.findByText('There is already an operator named val.')).toBeTruthy();
    expect(screen.getByTestId('operator-create-name').getAttribute('aria-invalid')).toBe('true');
  });

  it('a non-administrator sees who they are and only “change my passphrase”', async () => {
    const desk = fakeMain(VAL);
    renderWithQuery(<OperatorsPanel />);
    expect((await screen.findByTestId('operators-me')).textContent).toContain('You are signed in as Val (Viewer)');
    expect(screen.getByTestId('passphrase-change')).toBeTruthy();
    expect(screen.queryByTestId('operators-table')).toBeNull();
    expect(screen.queryByTestId('operator-create')).toBeNull();
    expect(desk.callsOf('operators.list')).toEqual([]);
  });

  it('changes my passphrase: a wrong current one is refused at its field, the right one changes it', async () => {
    const desk = fakeMain(VAL);
    renderWithQuery(<OperatorsPanel />);
    await screen.findByTestId('passphrase-change');
    await enterText(screen.getByTestId('passphrase-current'), 'not the passphrase');
    await enterText(screen.getByTestId('passphrase-next'), 'a brand new long passphrase');
    await enterText(screen.getByTestId('passphrase-repeat'), 'a brand new long passphrase');
    await userEvent.click(screen.getByTestId('passphrase-change-submit'));
    expect(await screen.findByText(/do not match an operator/)).toBeTruthy();
    expect(screen.getByTestId('passphrase-current').getAttribute('aria-invalid')).toBe('true');

    await userEvent.clear(screen.getByTestId('passphrase-current'));
    await enterText(screen.getByTestId('passphrase-current'), 'the current passphrase');
    await userEvent.click(screen.getByTestId('passphrase-change-submit'));
    expect(await screen.findByTestId('passphrase-changed')).toBeTruthy();
    expect(desk.callsOf('operators.changePassphrase').at(-1)).toEqual({
      current: 'the current passphrase',
      next: 'a brand new long passphrase',
    });
    expect((screen.getByTestId('passphrase-current') as HTMLInputElement).value).toBe('');
  });

  it('says plainly that four eyes are not in force with one administrator; resets a passphrase and removes an operator as control changes', async () => {
    const desk = installFakeDesk({
      'operators.current': () => session(ADA),
      'operators.list': () => [{ ...ADA }, { ...VAL, grantedBy: 'Ada', grantedAt: Date.UTC(2026, 0, 6, 9) }],
      'approvals.fourEyes': () => ({
        inForce: false,
        administrators: 1,
        reason: 'Four eyes are NOT in force: this desk has one administrator.',
        operatorCoolingOffHours: 72,
      }),
      'operators.resetPassphrase': () => {
        throw { code: 'AWAITING_APPROVAL', message: 'Waiting for approval (ap_1).' };
      },
      'operators.remove': () => ({ removed: true as const }),
    });
    renderWithQuery(<OperatorsPanel />);
    const notice = await screen.findByTestId('four-eyes');
    expect(notice.textContent).toContain('Four eyes are NOT in force');
    expect(notice.getAttribute('data-in-force')).toBe('false');
    expect((await screen.findByTestId('operator-grant-Val')).textContent).toContain('by Ada');
    // Nobody removes or resets themselves here.
    expect(screen.queryByTestId('operator-remove-Ada')).toBeNull();

    await userEvent.click(screen.getByTestId('operator-reset-Val'));
    const dialog = await screen.findByTestId('operator-reset-dialog');
    await enterText(within(dialog).getByTestId('operator-reset-passphrase'), 'a fresh start for tomorrow');
    await enterText(within(dialog).getByTestId('operator-reset-repeat'), 'a fresh start for tomorrow');
    await userEvent.click(within(dialog).getByTestId('confirm-accept'));
    expect((await screen.findByTestId('operator-reset-queued')).textContent).toContain(
      'Waits for another administrator in Approvals',
    );
    expect(desk.callsOf('operators.resetPassphrase')).toEqual([{ id: 'o2', passphrase: 'a fresh start for tomorrow' }]);

    await userEvent.click(screen.getByTestId('operator-remove-Val'));
    expect(desk.callsOf('operators.remove')).toEqual([{ id: 'o2' }]);
  });
});
