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
      { enabled: true, deposits: true, withdrawals: false, pushes: true },
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

  it('says why when this computer cannot show them', async () => {
    fakeMain(false);
    renderWithQuery(<OsNotificationsPanel />);
    expect((await screen.findByTestId('os-notifications-unavailable')).textContent).toMatch(/libnotify-bin/);
  });
});
