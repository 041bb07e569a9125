import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KeyView } from '../../../../../shared/contract/keys';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { enterText, setupUser } from '../../../lib/testing/user';
import { KeyFormDialog } from './KeyFormDialog';

afterEach(cleanup);

/** The person at the keyboard, a fresh one per test (lib/testing/user.ts: no hover before each click). */
let user = setupUser();
beforeEach(() => {
  user = setupUser();
});

const view: KeyView = {
  key: 'abcdef0123456789abcdef0123456789',
  userId: 7,
  name: 'bot',
  mode: 'classic',
  perms: { spot: 'write', wallet: 'read' },
  ipWhitelist: ['203.0.113.7', '198.51.100.1'],
  state: 'normal',
  expiry: { ipBound: true, level: 'none' },
  secretInKeychain: false,
};

/**
 * Adds a whitelist row and puts `text` in it: pasted, in one change (each keystroke re-renders the
 * whole form, and most tests are about the address, not the typing), or typed key by key.
 */
const addIp = async (text: string, how: 'pasted' | 'typed' = 'pasted') => {
  await user.click(screen.getByRole('button', { name: 'Add address' }));
  const inputs = screen.getAllByLabelText(/^IP address \d+$/);
  const row = inputs[inputs.length - 1]!;
  await (how === 'typed' ? user.type(row, text) : enterText(row, text));
};

describe('Key form: IP whitelist and permissions are checked before sending', () => {
  it('stops an invalid IPv4 address inline and sends nothing', async () => {
    const desk = installFakeDesk({ 'keys.create': () => ({ key: view, secret: 's', secretStored: false }) });
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await addIp('300.1.2.3', 'typed');
    expect(screen.getByText('Each of the four numbers must be between 0 and 255.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByTestId('key-form-invalid')).toBeTruthy();
    expect(desk.callsOf('keys.create')).toEqual([]);
  });

  it('refuses ranges and duplicates', async () => {
    installFakeDesk({});
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await addIp('10.0.0.0/24');
    expect(screen.getByText('Ranges are not supported: enter single addresses.')).toBeTruthy();
    await addIp('1.1.1.1');
    await addIp('1.1.1.1');
    expect(screen.getByText('Already in the list (entry 2).')).toBeTruthy();
  });

  it('allows at most 20 addresses', async () => {
    installFakeDesk({});
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    const add = screen.getByRole('button', { name: 'Add address' });
    for (let i = 0; i < 20; i += 1) await user.click(add);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('20 of 20', { exact: false })).toBeTruthy();
  });

  it('needs at least one permission', async () => {
    const desk = installFakeDesk({});
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await user.click(screen.getByLabelText('Wallet: None'));
    await user.click(screen.getByLabelText('Spot & margin trading: None'));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByText('Give the key at least one permission.')).toBeTruthy();
    expect(desk.callsOf('keys.create')).toEqual([]);
  });

  it('creates with the matrix, the whitelist and the keychain choice', async () => {
    const desk = installFakeDesk({ 'keys.create': () => ({ key: view, secret: 'shh', secretStored: true }) });
    const onCreated = vi.fn();
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} onCreated={onCreated} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await user.click(screen.getByLabelText('Spot & margin trading: Read-write'));
    await addIp(' 203.0.113.7 ');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    expect(desk.callsOf('keys.create')).toEqual([
      {
        userId: 7,
        name: 'bot',
        mode: 'classic',
        perms: { wallet: 'read', spot: 'write' },
        ipWhitelist: ['203.0.113.7'],
        keepSecretInKeychain: true,
      },
    ]);
  });

  it('edit always sends the full whitelist, including addresses not touched', async () => {
    const desk = installFakeDesk({ 'keys.update': () => view });
    renderWithQuery(<KeyFormDialog userId={7} editing={view} onClose={() => {}} />);
    const name = screen.getByLabelText('Key name');
    await user.clear(name);
    await user.type(name, 'bot 2');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    await vi.waitFor(() => expect(desk.callsOf('keys.update')).toHaveLength(1));
    expect(desk.callsOf('keys.update')[0]).toEqual({
      userId: 7,
      key: view.key,
      name: 'bot 2',
      perms: view.perms,
      ipWhitelist: ['203.0.113.7', '198.51.100.1'],
    });
  });

  it('warns before an edit removes the whole whitelist', async () => {
    installFakeDesk({});
    renderWithQuery(<KeyFormDialog userId={7} editing={view} onClose={() => {}} />);
    const editor = screen.getByTestId('ip-whitelist-editor');
    await user.click(within(editor).getByRole('button', { name: 'Remove IP address 2' }));
    await user.click(within(editor).getByRole('button', { name: 'Remove IP address 1' }));
    expect(screen.getByText(/Saving removes every address/)).toBeTruthy();
  });
});

describe('Key form: Enter never creates a key', () => {
  it('Enter in the name field creates nothing (no key with default permissions); the button does', async () => {
    const desk = installFakeDesk({ 'keys.create': () => ({ key: view, secret: 's', secretStored: false }) });
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot{Enter}');
    expect(desk.callsOf('keys.create')).toEqual([]);
  });
});

describe('Key form: one way for errors', () => {
  const refuse = (error: object) => () => {
    throw error;
  };

  it('main’s refusal of one whitelist row shows once, at that row — not as a banner too', async () => {
    installFakeDesk({
      'keys.create': refuse({
        code: 'INVALID_INPUT',
        message: 'The request was not valid; nothing was sent.',
        advice: 'Check the values you entered and try again.',
        fields: { 'ipWhitelist.1': 'This address is reserved.' },
      }),
    });
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await addIp('203.0.113.7');
    await addIp('198.51.100.1');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await vi.waitFor(() => expect(screen.getAllByText('This address is reserved.')).toHaveLength(1));
    expect(screen.getByLabelText('IP address 2').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('IP address 1').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('error-notice')).toBeNull();
    expect(screen.queryByText('Check the values you entered and try again.')).toBeNull();
  });

  it('a refusal naming the key name highlights the name field once', async () => {
    installFakeDesk({
      'keys.create': refuse({ code: 'INVALID_INPUT', message: 'Not valid', fields: { name: 'This name is taken.' } }),
    });
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await vi.waitFor(() => expect(screen.getAllByText('This name is taken.')).toHaveLength(1));
    expect(screen.getByLabelText('Key name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('key-form-invalid')).toBeNull();
  });

  it('a platform refusal without fields is one banner with main’s advice as is, nothing highlighted', async () => {
    installFakeDesk({
      'keys.create': refuse({
        code: 'PLATFORM',
        message: 'A value in the request was not accepted by the platform.',
        label: 'INVALID_PARAM_VALUE',
        advice: 'Check the values you entered and try again.',
        delivery: 'not_sent',
      }),
    });
    renderWithQuery(<KeyFormDialog userId={7} onClose={() => {}} />);
    await user.type(screen.getByLabelText('Key name'), 'bot');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('error-notice')).toHaveLength(1));
    expect(screen.getByTestId('error-notice').textContent).toContain('not accepted by the platform');
    expect(screen.getByText('Check the values you entered and try again.')).toBeTruthy();
    expect(screen.queryByText(/highlighted/i)).toBeNull();
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
  });
});
