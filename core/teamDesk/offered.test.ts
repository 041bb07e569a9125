import { describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../shared/contract/team';
import { MemoryKeyStore } from '../keychain/keyStore';
import { parseTeamUrl, readTeamPassword } from '../team';
import { asRenderer, startTestCore } from '../testing/core';
import { teamUrlArgument } from './teamUrlArgument';

describe('a team URL given at start (npm start -- --team URL, TREASURY_DESK_TEAM_URL)', () => {
  it('the shells read --team URL, --team=URL, else the environment', () => {
    const env = { TREASURY_DESK_TEAM_URL: 'postgres://env@db/treasury' };
    expect(teamUrlArgument(['--team', 'postgres://a@db/t'], env)).toBe('postgres://a@db/t');
    expect(teamUrlArgument(['--headless', '--team=postgres://b@db/t'], env)).toBe('postgres://b@db/t');
    expect(teamUrlArgument(['--headless'], env)).toBe('postgres://env@db/treasury');
    expect(teamUrlArgument([], {})).toBeUndefined();
  });

  it('Settings → Team offers it without its password, which is in the keychain; the desk still works alone', async () => {
    const keyStore = new MemoryKeyStore();
    const desk = await startTestCore(
      { mode: 'off' },
      { connect: false, keyStore, team: { url: 'postgres://desk:s3cret%21@DB.firm.example/treasury' } },
    );
    try {
      const result = await desk.core.dispatch('team.status', {}, asRenderer);
      if (!result.ok) throw new Error(result.error.message);
      const status = result.value as TeamStatus;
      expect(status.mode).toBe('solo');
      expect(status.offeredUrl).toBe('postgres://desk@db.firm.example:5432/treasury?sslmode=verify-full');
      expect(JSON.stringify(status)).not.toContain('s3cret');
      const { url } = parseTeamUrl(status.offeredUrl!);
      expect(await readTeamPassword(keyStore, url)).toBe('s3cret!');
    } finally {
      await desk.close();
    }
  });
});
