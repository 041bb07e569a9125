import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyView } from '../../../../../shared/contract/keys';
import { KeyCreatedDialog } from './KeyCreatedDialog';

afterEach(cleanup);

const key: KeyView = {
  key: 'abcdef0123456789abcdef0123456789',
  userId: 7,
  name: 'bot',
  mode: 'classic',
  perms: { spot: 'write' },
  ipWhitelist: [],
  state: 'normal',
  createdAt: 1_700_000_000,
  expiry: { ipBound: true, level: 'none' },
  secretInKeychain: false,
};

describe('after a key is created', () => {
  it('shows the key id and says the secret was shown in Treasury Desk’s own window, never here', () => {
    render(<KeyCreatedDialog created={{ key, secretShown: true, secretStored: true }} onClose={() => {}} />);
    expect(screen.getByTestId('created-key').textContent).toBe(key.key);
    expect(screen.getByTestId('secret-shown').textContent).toContain('own window');
    expect(screen.getByTestId('secret-stored')).toBeTruthy();
    expect(screen.queryByTestId('secret-lost')).toBeNull();
  });

  it('a secret neither shown nor kept: the key is useless, and the dialog says to delete it', () => {
    render(<KeyCreatedDialog created={{ key, secretShown: false, secretStored: false }} onClose={() => {}} />);
    expect(screen.getByTestId('secret-lost').textContent).toContain('Delete it');
  });
});
