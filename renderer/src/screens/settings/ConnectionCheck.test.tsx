import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionCheck as CheckResult, DEEP_CHECK_PROBES } from '../../../../shared/contract/profiles';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { ConnectionCheck } from './ConnectionCheck';

afterEach(cleanup);

const profile = (kind: 'sandbox' | 'live') => ({
  id: kind === 'live' ? 'live-1' : 'local-sandbox',
  kind,
  name: kind === 'live' ? 'Desk live' : 'Local sandbox',
  baseUrl: kind === 'live' ? 'https://api.gateio.ws/api/v4' : 'http://127.0.0.1:5000/api/v4',
  keyMask: 'abcd…wxyz',
  active: true,
  managed: kind === 'sandbox',
});

const answer = (deep: boolean): CheckResult => ({
  profileId: 'p',
  checkedAt: 1,
  ok: true,
  checks: [{ name: 'permissions', outcome: 'ok', detail: 'Per group' }],
  permissions: deep
    ? { spot: 'read-write', wallet: 'read-write', withdrawal: 'read-only', subAccounts: 'read-write' }
    : { spot: 'read', wallet: 'read', withdrawal: 'read', subAccounts: 'none' },
  ipWhitelist: [],
  deep,
});

const level = (group: string) => screen.getByTestId(`permission-${group}`);

describe('Connection check', () => {
  it('Test connection only reads, and says that writing was not tested', async () => {
    const desk = installFakeDesk({
      'profiles.connectionCheck': (input) => answer((input as { deep?: boolean }).deep === true),
    });
    renderWithQuery(<ConnectionCheck profile={profile('sandbox')} />);
    await userEvent.click(screen.getByTestId('run-connection-check'));
    expect((await screen.findByTestId('check-kind')).dataset.deep).toBe('false');
    expect(screen.getByText('Reads only: writing not tested')).toBeTruthy();
    expect(level('spot').dataset.level).toBe('read');
    expect(level('spot').textContent).toBe('May read; writing not tested');
    expect(level('subAccounts').textContent).toBe('No access');
    expect(desk.callsOf('profiles.connectionCheck')).toEqual([{}]);
  });

  it('the deep check lists every probe first, sends nothing on Cancel, and shows read-write / read-only per group', async () => {
    const desk = installFakeDesk({
      'profiles.connectionCheck': (input) => answer((input as { deep?: boolean }).deep === true),
    });
    renderWithQuery(<ConnectionCheck profile={profile('sandbox')} />);
    await userEvent.click(screen.getByTestId('run-deep-check'));
    const dialog = await screen.findByTestId('deep-check-dialog');
    const probes = within(dialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(probes).toEqual([...DEEP_CHECK_PROBES]);
    await userEvent.click(within(dialog).getByTestId('confirm-cancel'));
    expect(desk.callsOf('profiles.connectionCheck')).toEqual([]);

    await userEvent.click(screen.getByTestId('run-deep-check'));
    await userEvent.click(within(await screen.findByTestId('deep-check-dialog')).getByTestId('confirm-accept'));
    expect((await screen.findByTestId('check-kind')).dataset.deep).toBe('true');
    expect(screen.getByText('Deep check: test writes were sent')).toBeTruthy();
    expect(level('spot').textContent).toBe('Read and write');
    expect(level('withdrawal').dataset.level).toBe('read-only');
    expect(level('withdrawal').textContent).toBe('Read only: writes are refused');
    expect(desk.callsOf('profiles.connectionCheck')).toEqual([{ deep: true }]);
  });

  it('on a live profile the deep check is sent only after the profile’s name is typed', async () => {
    const desk = installFakeDesk({ 'profiles.connectionCheck': () => answer(true) });
    renderWithQuery(<ConnectionCheck profile={profile('live')} />);
    await userEvent.click(screen.getByTestId('run-deep-check'));
    const dialog = await screen.findByTestId('deep-check-dialog');
    expect(within(dialog).getByText(/live profile/)).toBeTruthy();
    const send = within(dialog).getByTestId('confirm-accept') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    const name = within(dialog).getByLabelText(/Type the profile’s name/);
    await userEvent.type(name, 'Desk');
    expect(send.disabled).toBe(true);
    expect(within(dialog).getByText('The name does not match.')).toBeTruthy();
    await userEvent.click(send);
    expect(desk.callsOf('profiles.connectionCheck')).toEqual([]);
    await userEvent.type(name, ' live');
    expect(send.disabled).toBe(false);
    await userEvent.click(send);
    expect((await screen.findByTestId('check-kind')).dataset.deep).toBe('true');
    expect(desk.callsOf('profiles.connectionCheck')).toEqual([{ deep: true }]);
  });
});
