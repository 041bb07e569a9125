import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../shared/contract/team';
import { installFakeDesk, renderWithQuery } from '../lib/testing/fakeDesk';
import { TeamBanner } from './TeamBanner';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'desk');
});

const CONNECTED: TeamStatus = {
  mode: 'team',
  url: 'postgres://desk@db.firm.example:5432/treasury?sslmode=verify-full',
  name: 'Firm',
  database: { state: 'connected' },
  integrity: { ok: true },
  blocked: [],
  operators: [],
  enrolments: [],
};

describe('the team banner on every screen', () => {
  it('alone, or in a team whose database answers and whose records verify: nothing is shown', async () => {
    const fake = installFakeDesk({
      'team.status': () => ({ mode: 'solo', blocked: [], operators: [], enrolments: [] }),
    });
    renderWithQuery(<TeamBanner />);
    await expect.poll(() => fake.callsOf('team.status').length).toBe(1);
    expect(screen.queryByTestId('team-banner')).toBeNull();
    fake.emit('team.statusChanged', CONNECTED);
    expect(screen.queryByTestId('team-banner')).toBeNull();
  });

  it('the database goes away: main’s event shows it at once, with what still works; it goes when the database is back', async () => {
    const fake = installFakeDesk({ 'team.status': () => CONNECTED });
    renderWithQuery(<TeamBanner />);
    await expect.poll(() => fake.callsOf('team.status').length).toBe(1);
    fake.emit('team.statusChanged', {
      ...CONNECTED,
      database: { state: 'unavailable', since: Date.now(), reason: 'connection refused' },
    });
    const shown = await screen.findByTestId('team-banner-database');
    expect(shown.textContent).toContain('The team database is unavailable');
    expect(shown.textContent).toContain('connection refused');
    expect(shown.textContent).toContain('New movements, approvals and control changes wait');
    expect(shown.textContent).toContain('balances and histories from the platform still show');
    fake.emit('team.statusChanged', CONNECTED);
    await expect.poll(() => screen.queryByTestId('team-banner')).toBeNull();
  });

  it('a chain that does not verify and a movement blocked for an edited row are both named', async () => {
    installFakeDesk({
      'team.status': () => ({
        ...CONNECTED,
        integrity: { ok: false, problem: 'Control change 4 does not verify.' },
        blocked: [
          { movementId: 'tm-1', problem: 'its amount in the database differs from what the maker signed', at: 1 },
        ],
      }),
    });
    renderWithQuery(<TeamBanner />);
    expect((await screen.findByTestId('team-banner-integrity')).textContent).toContain(
      'Control change 4 does not verify.',
    );
    const blocked = screen.getByTestId('team-banner-blocked');
    expect(blocked.textContent).toContain('its amount in the database differs from what the maker signed');
    expect(blocked.textContent).toContain('It was not sent');
  });
});
