import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AMBIGUOUS_RECORD, type MovementView } from '../../../../shared/contract/activity';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import { Movements } from './Movements';
import { needsPerson } from './NeedsPerson';

afterEach(cleanup);

const movement = (over: Partial<MovementView>): MovementView => ({
  id: 'm1',
  profileId: 'local-sandbox',
  kind: 'withdrawal',
  state: 'unknown',
  clientId: 'td7Yc2',
  currency: 'USDT',
  amount: '25',
  params: {},
  attempts: 1,
  createdAt: Date.UTC(2026, 10, 22, 1, 0),
  updatedAt: Date.UTC(2026, 10, 22, 1, 0),
  operator: 'Ana',
  ...over,
});

const duplicate = movement({
  label: 'DUPLICATE_REQUEST',
  message: 'The platform said it already has this request, but its records do not show it yet.',
});
const checking = movement({ id: 'm2', clientId: 'td9', message: 'The answer was lost; checking.' });
const settled = movement({ id: 'm3', state: 'done', label: 'DUPLICATE_REQUEST' });

describe('needsPerson', () => {
  it('marks an unknown movement the platform calls a duplicate, a lost sub → sub transfer, and a non-success platform status', () => {
    expect(needsPerson(duplicate)?.why).toContain('already has this request');
    expect(needsPerson(movement({ label: 'ORDER_EXISTS' }))).toBeDefined();
    const subToSub = needsPerson(
      movement({ kind: 'subToSubTransfer', params: { sub_account_from: '10000003', sub_account_to: 10000004 } }),
    );
    expect(subToSub?.why).toContain('no way to look up');
    expect(subToSub?.check).toContain('both sub-accounts (10000003 → 10000004)');
    expect(needsPerson(movement({ kind: 'subAccountTransfer', platformStatus: 'PENDING' }))?.why).toContain('PENDING');
    // A push whose possible record cannot be told from someone else's identical one.
    const ambiguous = needsPerson(movement({ kind: 'push', clientId: '', label: AMBIGUOUS_RECORD }));
    expect(ambiguous?.why).toContain('cannot tell whether it is this one');
    expect(ambiguous?.check).toContain('UID transfer records');
    // Still being checked by the journal, or already settled: nothing for a person to do.
    expect(needsPerson(checking)).toBeUndefined();
    expect(needsPerson(settled)).toBeUndefined();
    expect(needsPerson(movement({ state: 'failed', label: 'DUPLICATE_REQUEST' }))).toBeUndefined();
  });
});

describe('Money movements that need a person', () => {
  const install = () => {
    let rows = [duplicate, checking, settled];
    return installFakeDesk({
      'activity.movements': (input) => {
        const state = (input as { state?: string }).state;
        return state ? rows.filter((m) => m.state === state) : rows;
      },
      'activity.resolveMovement': (input) => {
        const { id, outcome, note } = input as { id: string; outcome: 'done' | 'failed'; note: string };
        rows = rows.map((m) => (m.id === id ? { ...m, state: outcome, message: `Settled by hand: ${note}` } : m));
        return rows.find((m) => m.id === id);
      },
    });
  };

  it('stand out on top with what to do; only those are listed there', async () => {
    install();
    renderWithQuery(<Movements />);
    const box = await screen.findByTestId('needs-person');
    expect(within(box).getByRole('heading').textContent).toBe('1 money movement needs a person');
    const item = within(box).getByTestId('needs-person-m1');
    expect(item.textContent).toContain('Withdrawal: 25 USDT');
    expect(item.textContent).toContain('DUPLICATE_REQUEST');
    expect(item.textContent).toContain('What to do:');
    expect(item.textContent).toContain('client id td7Yc2');
    expect(within(box).queryByTestId('needs-person-m2')).toBeNull();
    // The row in the table carries the mark too.
    const table = await screen.findByTestId('movements-table');
    expect(within(table).getAllByText('Needs a person')).toHaveLength(1);
  });

  it('settling asks what was checked, sends nothing until confirmed, then records the verdict with the note', async () => {
    const desk = install();
    renderWithQuery(<Movements />);
    const item = await screen.findByTestId('needs-person-m1');
    await userEvent.click(within(item).getByRole('button', { name: 'Settle as not executed' }));
    const dialog = await screen.findByTestId('settle-dialog');
    expect(dialog.textContent).toContain('Before settling, check on the platform itself.');
    expect(dialog.textContent).toContain('withdrawal records');
    expect(dialog.textContent).toContain('will never send it');
    const confirm = within(dialog).getByTestId('confirm-accept') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await userEvent.click(within(dialog).getByTestId('settle-checked'));
    expect(confirm.disabled).toBe(true); // still no note
    await userEvent.type(within(dialog).getByLabelText(/What you checked/), 'no');
    expect(confirm.disabled).toBe(true);
    await enterText(within(dialog).getByLabelText(/What you checked/), 't in withdrawal records, balance unchanged');
    expect(desk.callsOf('activity.resolveMovement')).toEqual([]);
    await userEvent.click(confirm);
    expect(desk.callsOf('activity.resolveMovement')).toEqual([
      { id: 'm1', outcome: 'failed', note: 'not in withdrawal records, balance unchanged' },
    ]);
    // Settled: it no longer needs a person.
    await screen.findByTestId('movements-table');
    await expect.poll(() => screen.queryByTestId('needs-person')).toBeNull();
  });

  it('Cancel settles nothing', async () => {
    const desk = install();
    renderWithQuery(<Movements />);
    const item = await screen.findByTestId('needs-person-m1');
    await userEvent.click(within(item).getByRole('button', { name: 'Settle as executed' }));
    const dialog = await screen.findByTestId('settle-dialog');
    expect(dialog.textContent).toContain('I found it on the platform');
    await userEvent.click(within(dialog).getByTestId('confirm-cancel'));
    expect(screen.queryByTestId('settle-dialog')).toBeNull();
    expect(desk.callsOf('activity.resolveMovement')).toEqual([]);
    expect(screen.getByTestId('needs-person-m1')).toBeTruthy();
  });
});

describe('Money movements: where each was asked for', () => {
  it('each row says whether it came from a screen or from a batch row, confirmed as a whole when and by whom', async () => {
    const batchRow = 'batch row 3 of batch “Payroll” (b1), confirmed as a whole at 2026-11-22T01:00:00.000Z by Ana';
    installFakeDesk({
      'activity.movements': () => [
        movement({ id: 'm1', state: 'done', origin: 'screen' }),
        movement({ id: 'm2', state: 'done', origin: batchRow }),
        movement({ id: 'm3', state: 'done' }),
      ],
    });
    renderWithQuery(<Movements />);
    const table = await screen.findByTestId('movements-table');
    expect(within(table).getByTestId('movement-origin-m1').textContent).toBe('Sent from a screen');
    expect(within(table).getByTestId('movement-origin-m2').textContent).toBe(`From ${batchRow}`);
    expect(within(table).getByTestId('movement-origin-m3').textContent).toBe('Origin not recorded');
  });
});
