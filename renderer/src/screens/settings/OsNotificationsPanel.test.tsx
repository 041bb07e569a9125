import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '../../../../shared/contract/app';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { OsNotificationsPanel } from './OsNotificationsPanel';

afterEach(cleanup);

const checked = (element: HTMLElement): boolean => (element as HTMLInputElement).checked;

/** A main that keeps what it is told, like the core's settings. */
const fakeMain = (available = true) => {
  let stored: NotificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  const view = () => ({
    settings: stored,
    available,
    ...(available ? {} : { unavailableReason: 'notify-send is not installed (Debian/Ubuntu package libnotify-bin).' }),
  });
  return installFakeDesk({
    'profiles.list': () => [
      {
        id: 'local-sandbox',
        kind: 'sandbox',
        name: 'Local sandbox',
        baseUrl: 'http://127.0.0.1/api/v4',
        active: true,
        managed: true,
      },
      {
        id: 'desk-2',
        kind: 'custom',
        name: 'Desk two',
        baseUrl: 'https://api.example.com/api/v4',
        active: false,
        managed: false,
      },
    ],
    'app.notificationSettings': view,
    'app.setNotificationSettings': (input) => {
      stored = input as NotificationSettings;
      return view();
    },
  });
};

describe('OS notifications settings', () => {
  it('are on by default for every kind; muting withdrawals sends the whole set to main', async () => {
    const desk = fakeMain();
    renderWithQuery(<OsNotificationsPanel />);
    const enabled = await screen.findByTestId('os-notifications-enabled');
    expect(checked(enabled)).toBe(true);
    for (const kind of ['deposits', 'withdrawals', 'pushes'])
      expect(checked(screen.getByTestId(`os-notifications-${kind}`))).toBe(true);
    expect(screen.queryByTestId('os-notifications-unavailable')).toBeNull();

    await userEvent.click(screen.getByTestId('os-notifications-withdrawals'));
    expect(desk.callsOf('app.setNotificationSettings')).toEqual([
      { ...DEFAULT_NOTIFICATION_SETTINGS, withdrawals: false },
    ]);
    await expect.poll(() => checked(screen.getByTestId('os-notifications-withdrawals'))).toBe(false);
    expect(checked(screen.getByTestId('os-notifications-deposits'))).toBe(true);
  });

  it('turning them off hides the per-kind choices and keeps them for later', async () => {
    const desk = fakeMain();
    renderWithQuery(<OsNotificationsPanel />);
    await userEvent.click(await screen.findByTestId('os-notifications-enabled'));
    expect(desk.callsOf('app.setNotificationSettings')).toEqual([{ ...DEFAULT_NOTIFICATION_SETTINGS, enabled: false }]);
    await expect.poll(() => screen.queryByTestId('os-notifications-deposits')).toBeNull();
  });

  it('unticking a profile mutes it; ticking it again unmutes it', async () => {
    const desk = fakeMain();
    renderWithQuery(<OsNotificationsPanel />);
    const desk2 = await screen.findByTestId('os-notifications-profile-desk-2');
    expect(checked(desk2)).toBe(true);
    expect(screen.getByTestId('os-notifications-profiles').textContent).toContain('Local sandbox');
    await userEvent.click(desk2);
    await expect.poll(() => checked(screen.getByTestId('os-notifications-profile-desk-2'))).toBe(false);
    expect(checked(screen.getByTestId('os-notifications-profile-local-sandbox'))).toBe(true);
    await userEvent.click(screen.getByTestId('os-notifications-profile-desk-2'));
    expect(desk.callsOf('app.setNotificationSettings')).toEqual([
      { ...DEFAULT_NOTIFICATION_SETTINGS, mutedProfiles: ['desk-2'] },
      { ...DEFAULT_NOTIFICATION_SETTINGS, mutedProfiles: [] },
    ]);
  });

  it('sets a minimum per currency (upper-cased), refuses a bad amount, and removes it', async () => {
    const desk = fakeMain();
    renderWithQuery(<OsNotificationsPanel />);
    await userEvent.type(await screen.findByTestId('os-notifications-minimum-currency'), 'usdt');
    await userEvent.type(screen.getByTestId('os-notifications-minimum-amount'), '1e3');
    await userEvent.click(screen.getByTestId('os-notifications-minimum-add'));
    expect(await screen.findByText(/at most one decimal point/)).toBeTruthy();
    expect(desk.callsOf('app.setNotificationSettings')).toEqual([]);

    await userEvent.clear(screen.getByTestId('os-notifications-minimum-amount'));
    await userEvent.type(screen.getByTestId('os-notifications-minimum-amount'), '1,100.5');
    await userEvent.click(screen.getByTestId('os-notifications-minimum-add'));
    expect(desk.callsOf('app.setNotificationSettings')).toEqual([
      { ...DEFAULT_NOTIFICATION_SETTINGS, minAmounts: { USDT: '1100.5' } },
    ]);
    expect((await screen.findByTestId('os-notifications-minimum-USDT')).textContent).toContain('below 1,100.5 USDT');

    await userEvent.click(screen.getByRole('button', { name: 'Remove the minimum for USDT' }));
    expect(desk.callsOf('app.setNotificationSettings').at(-1)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    await expect.poll(() => screen.queryByTestId('os-notifications-minimum-USDT')).toBeNull();
  });

  it('says why when this computer cannot show them', async () => {
    fakeMain(false);
    renderWithQuery(<OsNotificationsPanel />);
    expect((await screen.findByTestId('os-notifications-unavailable')).textContent).toMatch(/libnotify-bin/);
  });
});
