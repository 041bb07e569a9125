import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useActiveProfile } from '../../lib/activeProfile';
import { installFakeDesk } from '../../lib/testing/fakeDesk';
import { FeeEstimateNote } from './FeeEstimateNote';

/** Shows when the active profile has been read, so a test can tell "no note" from "not loaded yet". */
const ActiveKind = () => <span>active: {useActiveProfile()?.kind ?? '…'}</span>;

afterEach(cleanup);

const renderWith = (kind: 'sandbox' | 'live') => {
  const profiles = [
    { id: 'p', kind, name: 'P', baseUrl: 'http://x/api/v4', active: true, managed: kind === 'sandbox' },
  ];
  installFakeDesk({ 'profiles.list': () => profiles });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ActiveKind />
      <FeeEstimateNote />
    </QueryClientProvider>,
  );
};

describe('the fee estimate note', () => {
  it('tells a live profile that fee and net are estimates', async () => {
    renderWith('live');
    expect((await screen.findByTestId('fee-estimate-note')).textContent).toContain('estimates');
  });

  it('says nothing on the sandbox, whose fee model is known', async () => {
    renderWith('sandbox');
    // The profile has been read (same hook, same query) and still no note.
    await screen.findByText('active: sandbox');
    expect(screen.queryByTestId('fee-estimate-note')).toBeNull();
  });
});
