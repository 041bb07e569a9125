import { describe, expect, it } from 'vitest';
import { TeamLive } from './changes';
import { TeamSenders } from './senders';
import { skipWithoutPostgres } from './testing/postgres';
import { withTestTeam } from './testing/team';

const PROFILE = 'live-main';
const LEASE_MS = 60_000;

describe.skipIf(skipWithoutPostgres('team senders.test'))("each profile's sending desk", () => {
  const file = withTestTeam();

  it('one desk sends while it is present; a desk whose core was killed is taken over at once, not after its lease', async () => {
    const t = file.team;
    const dbA = t.desk();
    const dbB = t.desk();
    // Each desk's LISTEN connection holds its presence, as an open team's does.
    const liveA = new TeamLive(dbA, () => undefined, { deskId: 'desk-a' });
    const liveB = new TeamLive(dbB, () => undefined, { deskId: 'desk-b' });
    await liveA.start();
    await liveB.start();
    const a = new TeamSenders(dbA, 'desk-a');
    const b = new TeamSenders(dbB, 'desk-b');
    try {
      expect(await a.acquire(PROFILE, LEASE_MS)).toBe(true);
      // Desk A is there and its lease is live: desk B stands by.
      expect(await b.acquire(PROFILE, LEASE_MS)).toBe(false);
      expect(await a.acquire(PROFILE, LEASE_MS)).toBe(true);

      // Desk A's core is killed: its connections close, and with them its presence.
      await liveA.stop();
      await expect.poll(() => b.acquire(PROFILE, LEASE_MS), { timeout: 5_000 }).toBe(true);
      // Desk A's restarted core finds desk B sending (and present), and stands by.
      const restartedA = new TeamLive(dbA, () => undefined, { deskId: 'desk-a' });
      await restartedA.start();
      expect(await a.acquire(PROFILE, LEASE_MS)).toBe(false);
      expect(await b.acquire(PROFILE, LEASE_MS)).toBe(true);
      await restartedA.stop();
    } finally {
      await liveA.stop();
      await liveB.stop();
    }
  });
});
