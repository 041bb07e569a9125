import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeyView } from '../../../../../shared/contract/keys';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { KeysPanel } from './KeysPanel';

afterEach(cleanup);

const SECRET = 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeed';
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

  it('shows the secret once; after closing it is gone and nothing can fetch it again', async () => {
    const desk = installFakeDesk({
      'keys.list': () => ({ keys: [] }),
      'keys.create': () => ({ key: unbound, secret: SECRET, secretStored: false }),
    });
    renderWithQuery(<KeysPanel userId={7} frozen={false} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create key' }));
    await userEvent.type(screen.getByLabelText('Key name'), 'bot');
    await userEvent.click(screen.getByLabelText(/Keep the secret/));
    await userEvent.click(screen.getByTestId('key-form-submit'));
    expect((await screen.findByTestId('created-secret')).textContent).toBe(SECRET);
    const done = screen.getByTestId('secret-done') as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    await userEvent.click(screen.getByLabelText(/I have copied the secret/));
    await userEvent.click(done);
    await vi.waitFor(() => expect(screen.queryByTestId('secret-once')).toBeNull());
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(desk.callsOf('keys.create')).toHaveLength(1);
    expect((desk.callsOf('keys.create')[0] as { keepSecretInKeychain: boolean }).keepSecretInKeychain).toBe(false);
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
