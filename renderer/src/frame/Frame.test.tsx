import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../App';
import { useLock } from '../lib/lock';
import { useNavigation } from '../lib/navigation';
import { installFakeDesk } from '../lib/testing/fakeDesk';

/** The bridge: answers what the frame asks; everything else fails like a missing profile. */
const installDesk = (options: { lockState?: 'unlocked' | 'locked'; unlockError?: boolean } = {}) => {
  let lockState = options.lockState ?? 'unlocked';
  const lock = () => ({ state: lockState, ...(lockState === 'locked' ? { reason: 'idle' as const } : {}) });
  const desk = installFakeDesk(
    {
      'app.info': () => ({ name: 'Treasury Desk', version: '9.9.9', shell: 'chromium', platform: 'linux' }),
      'profiles.list': () => [
        {
          id: 'sb',
          kind: 'sandbox',
          name: 'Local sandbox',
          baseUrl: 'http://127.0.0.1/api/v4',
          active: true,
          managed: true,
        },
        {
          id: 'lv',
          kind: 'live',
          name: 'Treasury live',
          baseUrl: 'https://api.example/api/v4',
          active: false,
          managed: false,
        },
      ],
      'profiles.status': () => ({
        profileId: 'sb',
        state: 'connected',
        clockWarning: false,
        limiter: { queued: 0, headroom: 1, buckets: [] },
        unresolvedMovements: 2,
      }),
      'app.lock': () => {
        lockState = 'locked';
        return lock();
      },
      'app.unlock': () => {
        if (options.unlockError) throw { code: 'KEYCHAIN', message: 'The keychain refused access.' };
        lockState = 'unlocked';
        return lock();
      },
      'app.lockState': () => lock(),
    },
    { unanswered: () => ({ code: 'PRECONDITION', message: 'No profile is connected.' }) },
  );
  return {
    /** The operations called so far, in order. */
    get calls() {
      return desk.calls.map((c) => c.operation);
    },
  };
};

beforeEach(() => {
  installDesk();
  useLock.setState({ locked: false, reason: null, securing: false, unlocking: false, error: null });
  // Every test starts on the first screen, as the app does (the keyboard test leaves Settings open).
  useNavigation.setState({ screen: 'balances', params: {} });
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'desk');
  delete document.documentElement.dataset.deskReady;
});

describe('the frame', () => {
  it('shows every screen in the navigation and sets the readiness marker once the bridge answers', async () => {
    render(<App />);
    const nav = screen.getByRole('navigation', { name: 'Screens' });
    const labels = [...nav.querySelectorAll('button')].map((b) => b.textContent?.replace(/^\W+/u, ''));
    expect(labels).toEqual([
      'Balances',
      'Approvals',
      'Deposits',
      'Withdrawals',
      'Transfers',
      'Sub-accounts',
      'Trade',
      'Activity',
      'Settings',
      'Bulk',
    ]);
    await waitFor(() => expect(document.documentElement.dataset.deskReady).toBe('true'));
    expect(screen.getByTestId('app-version').textContent).toContain('v9.9.9');
  });

  it('counts what waits in Approvals beside its entry, and counts again when an item changes', async () => {
    let waiting = 2;
    const desk = installFakeDesk(
      {
        'approvals.list': ({ state }) => ({
          approvals: Array.from({ length: state === 'pending' ? waiting : 0 }, (_, i) => ({
            id: `ap_${i}`,
            profileId: 'sb',
            kind: 'withdrawal' as const,
            state: 'pending' as const,
            currency: 'USDT',
            amount: '100',
            destination: 'T on TRX',
            summary: 'Withdraw 100 USDT',
            reasons: [],
            makerId: 'op',
            makerName: 'Mia',
            createdAt: 1,
            expiresAt: 2,
          })),
        }),
      },
      { unanswered: () => ({ code: 'PRECONDITION', message: 'No profile is connected.' }) },
    );
    render(<App />);
    const entry = screen.getByTestId('nav-approvals');
    expect((await screen.findByTestId('nav-approvals-count')).textContent).toBe('2 waiting');
    // Its name stays "Approvals"; the count is its description.
    expect(entry.getAttribute('aria-label')).toBe('Approvals');
    expect(entry.getAttribute('aria-describedby')).toBe('nav-approvals-count');
    waiting = 0;
    desk.emit('approvals.changed', { id: 'ap_0', state: 'sent' });
    await waitFor(() => expect(screen.queryByTestId('nav-approvals-count')).toBeNull());
    expect(entry.getAttribute('aria-describedby')).toBeNull();
  });

  it('shows the active profile, its kind and connection state', async () => {
    render(<App />);
    const select = (await screen.findByTestId('profile-select')) as HTMLSelectElement;
    expect(select.value).toBe('sb');
    expect(screen.getByTestId('profile-kind').textContent).toBe('Sandbox');
    await waitFor(() => expect(screen.getByTestId('connection-state').dataset.state).toBe('connected'));
    expect(screen.getByTestId('profile-switcher').textContent).toContain('2 being checked');
  });

  it('the connection state opens its details: clock, rate-limit budget, last error; Escape closes them', async () => {
    render(<App />);
    await waitFor(() => expect(screen.getByTestId('connection-state').dataset.state).toBe('connected'));
    expect(screen.queryByTestId('connection-details')).toBeNull();
    await userEvent.click(screen.getByTestId('connection-state'));
    expect(screen.getByTestId('connection-state').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('connection-budget').textContent).toBe(
      '100 % left in the tightest window · nothing waiting',
    );
    expect(screen.getByTestId('connection-last-error').textContent).toBe('None');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('connection-details')).toBeNull();
  });

  it('opens a screen from the navigation and marks it current', async () => {
    render(<App />);
    await userEvent.click(screen.getByTestId('nav-settings'));
    expect(screen.getByTestId('nav-settings').getAttribute('aria-current')).toBe('page');
    // Every screen but the first has its own chunk: its heading shows once its code has loaded.
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
  });

  it('keyboard: Ctrl+number opens screens and focus lands on the screen title', async () => {
    render(<App />);
    await waitFor(() => expect(document.documentElement.dataset.deskReady).toBe('true'));
    await userEvent.keyboard('{Control>}4{/Control}');
    const transfers = await screen.findByTestId('screen-transfers');
    const title = await within(transfers).findByText('Transfers', { selector: 'h1' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    await userEvent.keyboard('{Control>}8{/Control}');
    expect(await screen.findByTestId('screen-settings')).toBeTruthy();
    expect(screen.getByTestId('nav-settings').getAttribute('aria-current')).toBe('page');
  });

  it('locks on request in main too, makes the rest of the app inert, and unlocks through main', async () => {
    const desk = installDesk();
    render(<App />);
    await userEvent.click(screen.getByTestId('lock-now'));
    expect(screen.getByTestId('lock-screen')).toBeTruthy();
    expect(screen.getByTestId('app-frame').hasAttribute('inert')).toBe(true);
    await waitFor(() => expect(desk.calls).toContain('app.lock'));
    await userEvent.type(screen.getByTestId('unlock-passphrase'), 'the passphrase');
    await userEvent.click(screen.getByTestId('unlock'));
    await waitFor(() => expect(screen.queryByTestId('lock-screen')).toBeNull());
    expect(desk.calls).toContain('app.unlock');
  });

  it('stays locked and says why when main cannot unlock (the keychain refused)', async () => {
    installDesk({ unlockError: true });
    render(<App />);
    await userEvent.click(screen.getByTestId('lock-now'));
    await userEvent.type(await screen.findByTestId('unlock-passphrase'), 'the passphrase');
    await userEvent.click(screen.getByTestId('unlock'));
    const lockScreen = screen.getByTestId('lock-screen');
    await waitFor(() => expect(lockScreen.textContent).toContain('The keychain refused access.'));
    expect(screen.getByTestId('lock-screen')).toBeTruthy();
  });

  it('shows the lock screen after a reload while main is still locked', async () => {
    installDesk({ lockState: 'locked' });
    render(<App />);
    expect((await screen.findByTestId('lock-screen')).textContent).toContain('without activity');
  });
});
