import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useDeskQuery } from './desk';
import { paintFrameFromSnapshot } from './frameSnapshot';
import { installFakeDesk } from './testing/fakeDesk';

const profile = (name: string) => ({ id: 'local-sandbox', name, kind: 'sandbox', active: true });

/** What the frame shows of the profiles, and whether it is the snapshot. */
const Profiles = () => {
  const profiles = useDeskQuery(['profiles.list', {}]);
  const operator = useDeskQuery(['operators.current', {}]);
  return (
    <p data-testid="shown">
      {profiles.data
        ? `${profiles.data.map((p) => p.name).join(',')}${profiles.isPlaceholderData ? ' (last run)' : ''}`
        : 'loading'}
      {operator.data ? ' operator' : ''}
    </p>
  );
};

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the frame painted from a snapshot', () => {
  it('shows the last run’s profiles at once, then the core’s answer, which it keeps for the next run', async () => {
    let answer: (value: unknown) => void = () => {};
    installFakeDesk({
      'profiles.list': () => new Promise((resolve) => (answer = resolve)),
      'operators.current': () => ({ signedIn: { id: 'o1', name: 'Alice', role: 'admin' } }),
    });
    localStorage.setItem('treasury-desk.frame-snapshot', JSON.stringify({ 'profiles.list': [profile('Desk A')] }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    paintFrameFromSnapshot(client);
    render(
      <QueryClientProvider client={client}>
        <Profiles />
      </QueryClientProvider>,
    );
    // Before the core answers: the snapshot, marked as such for whoever needs to know.
    expect(screen.getByTestId('shown').textContent).toContain('Desk A (last run)');
    answer([profile('Desk B')]);
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toContain('Desk B'));
    expect(screen.getByTestId('shown').textContent).not.toContain('last run');
    // Kept for the next start — and never who was signed in.
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toContain('operator'));
    const kept = JSON.parse(localStorage.getItem('treasury-desk.frame-snapshot') ?? '{}');
    expect(kept).toEqual({ 'profiles.list': [profile('Desk B')] });
  });

  it('without a snapshot (first start), the frame waits for the core as before', () => {
    installFakeDesk({ 'profiles.list': () => new Promise(() => {}) });
    const client = new QueryClient();
    paintFrameFromSnapshot(client);
    render(
      <QueryClientProvider client={client}>
        <Profiles />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('shown').textContent).toBe('loading');
  });
});
