import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { CreateSubAccountDialog } from './CreateSubAccountDialog';

afterEach(cleanup);

const created = { userId: 42, loginName: 'ops_desk', state: 'normal', type: 'normal' };

describe('Create sub-account: login-name rules', () => {
  it.each([
    ['ops desk', 'Spaces are not allowed'],
    ['ops-desk', 'Only letters'],
    ['9lives', 'Start with a letter'],
    ['abc', 'at least 4'],
  ])('stops %j inline and sends nothing', async (name, message) => {
    const desk = installFakeDesk({ 'subAccounts.create': () => created });
    renderWithQuery(<CreateSubAccountDialog onClose={() => {}} onCreated={() => {}} />);
    await userEvent.type(screen.getByLabelText('Login name'), name);
    expect(screen.getByRole('alert').textContent).toContain(message);
    await userEvent.click(screen.getByRole('button', { name: 'Create sub-account' }));
    expect(desk.callsOf('subAccounts.create')).toEqual([]);
  });

  it('asks for a name before sending an empty form', async () => {
    const desk = installFakeDesk({ 'subAccounts.create': () => created });
    renderWithQuery(<CreateSubAccountDialog onClose={() => {}} onCreated={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create sub-account' }));
    expect(screen.getByRole('alert').textContent).toContain('Enter a login name');
    expect(desk.callsOf('subAccounts.create')).toEqual([]);
  });

  it('sends a valid name with the optional fields only when filled', async () => {
    const desk = installFakeDesk({ 'subAccounts.create': () => created });
    const onCreated = vi.fn();
    renderWithQuery(<CreateSubAccountDialog onClose={() => {}} onCreated={onCreated} />);
    await userEvent.type(screen.getByLabelText('Login name'), 'ops_desk');
    await userEvent.type(screen.getByLabelText('Remark (optional)'), 'bots');
    await userEvent.click(screen.getByRole('button', { name: 'Create sub-account' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(desk.callsOf('subAccounts.create')).toEqual([{ loginName: 'ops_desk', remark: 'bots' }]);
  });
});

describe('Create sub-account: one way for errors and keys', () => {
  it('a refusal naming a field shows once, at that field — not as a banner too', async () => {
    installFakeDesk({
      'subAccounts.create': () => {
        throw {
          code: 'INVALID_INPUT',
          message: 'The request was not valid; nothing was sent.',
          fields: { email: 'This e-mail is taken.' },
        };
      },
    });
    renderWithQuery(<CreateSubAccountDialog onClose={() => {}} onCreated={() => {}} />);
    await userEvent.type(screen.getByLabelText('Login name'), 'ops_desk');
    await userEvent.type(screen.getByLabelText('E-mail (optional)'), 'a@b.co');
    await userEvent.click(screen.getByRole('button', { name: 'Create sub-account' }));
    await vi.waitFor(() => expect(screen.getAllByText('This e-mail is taken.')).toHaveLength(1));
    expect(screen.queryByText('The request was not valid; nothing was sent.')).toBeNull();
    expect(screen.getByLabelText('E-mail (optional)').getAttribute('aria-invalid')).toBe('true');
  });

  it('Enter in a field submits a valid form; with an invalid name it sends nothing', async () => {
    const desk = installFakeDesk({ 'subAccounts.create': () => created });
    renderWithQuery(<CreateSubAccountDialog onClose={() => {}} onCreated={() => {}} />);
    await userEvent.type(screen.getByLabelText('Login name'), 'ab{Enter}');
    expect(desk.callsOf('subAccounts.create')).toEqual([]);
    await userEvent.type(screen.getByLabelText('Login name'), 'cd_ok{Enter}');
    await vi.waitFor(() => expect(desk.callsOf('subAccounts.create')).toEqual([{ loginName: 'abcd_ok' }]));
  });
});
