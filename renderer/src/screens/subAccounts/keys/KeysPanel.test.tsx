import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeyView } from '../../../../../shared/contract/keys';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { KeysPanel } from './KeysPanel';

afterEach(cleanup);

const unbound: KeyView = {
  key: 'abcdef0123456789abcdef0123456789',
  userId: 7,
  name: 'bot',
  mode: 'classic',
  perms: { spot: 'write' },
  ipWhitelist: [],
  state: 'normal',
  createdAt: 1_700_000_000,
  expiry: { ipBound: false, daysLeft: 10, expiresAt: 0, level: 'warning' },
  secretInKeychain: false,
};

describe('Keys panel', () => {
  it('warns about the 90-day expiry of keys without IP binding', async () => {
    installFakeDesk({ 'keys.list': () => ({ keys: [unbound] }) });
    renderWithQuery(<KeysPanel userId={7} frozen={false} />);
    expect(await screen.findByText('No IP binding: expires in 10 days')).toBeTruthy();
    expect(screen.getByText('Never')).toBeTruthy();
  });

  it('creates a key and says where its secret went; the window never has it', async () => {
    const desk = installFakeDesk({
      'keys.list': () => ({ keys: [] }),
      'keys.create': () => ({ key: unbound, secretShown: true, secretStored: false }),
    });
    renderWithQuery(<KeysPanel userId={7} frozen={false} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    await userEvent.type(screen.getByLabelText('Key name'), 'bot');
    await userEvent.click(screen.getByLabelText(/Keep the secret/));
    await userEvent.click(screen.getByTestId('key-form-submit'));
    expect((await screen.findByTestId('created-key')).textContent).toBe(unbound.key);
    expect(screen.getByTestId('secret-shown')).toBeTruthy();
    await userEvent.click(screen.getByTestId('key-created-done'));
    await vi.waitFor(() => expect(screen.queryByTestId('key-created')).toBeNull());
    expect(desk.callsOf('keys.create')).toHaveLength(1);
    expect((desk.callsOf('keys.create')[0] as { keepSecretInKeychain: boolean }).keepSecretInKeychain).toBe(false);
  });

  it('a secret neither shown nor kept: the key is useless, and the dialog says to delete it', async () => {
    installFakeDesk({
      'keys.list': () => ({ keys: [] }),
      'keys.create': () => ({ key: unbound, secretShown: false, secretStored: false }),
    });
    renderWithQuery(<KeysPanel userId={7} frozen={false} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    await userEvent.type(screen.getByLabelText('Key name'), 'bot');
    await userEvent.click(screen.getByTestId('key-form-submit'));
    expect((await screen.findByTestId('secret-lost')).textContent).toContain('Delete it');
    expect(screen.queryByTestId('secret-shown')).toBeNull();
  });

  it('deletes only after confirmation', async () => {
    const desk = installFakeDesk({
      'keys.list': () => ({ keys: [unbound] }),
      'keys.delete': () => ({ deleted: true, secretForgotten: false }),
    });
    renderWithQuery(<KeysPanel userId={7} frozen={false} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete key bot' }));
    expect(desk.callsOf('keys.delete')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Delete key' }));
    await vi.waitFor(() => expect(desk.callsOf('keys.delete')).toEqual([{ userId: 7, key: unbound.key }]));
  });
});
