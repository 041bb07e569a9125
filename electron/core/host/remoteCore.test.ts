/**
 * The core in its own process, supervised from the shell's side: real child processes (the
 * TypeScript entry under tsx), a real sandbox, real crashes (SIGKILL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../../sandbox/server';
import { TEST_ADMIN } from '../testing/core';
import { waitUntil } from '../testing/waitUntil';
import { nodeCoreLauncher } from './nodeLauncher';
import { CoreStartFailed, type RemoteCore, startRemoteCore } from './remoteCore';

const ORIGIN = 'https://treasury-desk.invalid';
const SENDER = { url: `${ORIGIN}/`, isMainFrame: true };
let sandbox: SandboxHandle;
const tmp = mkdtempSync(join(tmpdir(), 'remote-core-'));

beforeAll(async () => {
  sandbox = await startSandbox({ memory: true, clock: 'manual', market: 'off' });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(tmp, { recursive: true, force: true });
});

const open = (dataDir: string, notices: string[] = [], maxRestartsPerMinute?: number): Promise<RemoteCore> =>
  startRemoteCore({
    launch: nodeCoreLauncher(),
    options: {
      dataDir,
      shell: 'chromium',
      trustedOrigins: [ORIGIN],
      keyStore: 'memory',
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      watchIntervalMs: 0,
      bootstrapOperator: TEST_ADMIN,
    },
    emit: (name, payload) => {
      if (name === 'app.notice') notices.push((payload as { message: string }).message);
    },
    ...(maxRestartsPerMinute === undefined ? {} : { maxRestartsPerMinute }),
  });

const faults = (rules: unknown[]) =>
  fetch(`${sandbox.controlUrl}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandbox.controlHeaders },
    body: JSON.stringify({ rules }),
  });

/** The sandbox's fault rules not yet used up (POST /faults answers with all of them; this one never matches). */
const faultRules = async (): Promise<{ path: string }[]> => {
  const answer = await faults([{ path: '/api/v4/never/called', kind: 'status_500' }]);
  return ((await answer.json()) as { rules: { path: string }[] }).rules;
};

describe('a core in its own process', () => {
  it('answers the window, refuses a second core on the same folder, and frees the folder when closed', async () => {
    const dataDir = join(tmp, 'one');
    const core = await open(dataDir);
    try {
      expect(core.pid).not.toBe(process.pid);
      expect(await core.dispatch('app.ping', { text: 'hi' }, SENDER)).toMatchObject({
        ok: true,
        value: { text: 'hi' },
      });
      // The sender is still checked in the core: the relay adds no trust.
      expect(
        await core.dispatch('app.ping', { text: 'hi' }, { url: 'https://evil.example/', isMainFrame: true }),
      ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
      const second = open(dataDir);
      await expect(second).rejects.toBeInstanceOf(CoreStartFailed);
      await expect(second).rejects.toMatchObject({ busy: true });
    } finally {
      await core.close();
    }
    const again = await open(dataDir);
    await again.close();
  });

  it('a core that dies mid-call: the call answers OUTCOME_UNKNOWN, a new core serves the next one, the window is told', async () => {
    const notices: string[] = [];
    const core = await open(join(tmp, 'crash'), notices);
    try {
      // A read no cache answers (the deposits of a period): it is on the wire when the core dies.
      await faults([{ method: 'GET', path: '/wallet/deposits', kind: 'delay', ms: 2_000, times: 1 }]);
      const now = Math.floor(Date.now() / 1000);
      const inFlight = core.dispatch('funding.deposits', { range: { from: now - 86_400, to: now } }, SENDER);
      // The delay rule leaves the sandbox's list when the read arrives: then it is on the wire.
      await waitUntil(async () => !(await faultRules()).some((r) => r.path.endsWith('/wallet/deposits')), {
        what: 'the read to reach the sandbox',
      });
      const first = core.pid;
      await core.crash();
      expect(await inFlight).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } });
      await core.ready();
      expect(core.pid).not.toBe(first);
      expect(core.restarts).toBe(1);
      expect(await core.dispatch('balances.spot', {}, SENDER)).toMatchObject({ ok: true });
      expect(notices.join('\n')).toContain('stopped unexpectedly and was restarted');
    } finally {
      await core.close();
    }
  });

  it('stops restarting a core that keeps dying, and says so', async () => {
    const notices: string[] = [];
    const core = await open(join(tmp, 'loop'), notices, 1);
    try {
      await core.crash();
      await core.ready();
      await core.crash();
      await expect.poll(() => notices.some((n) => n.includes('keeps stopping'))).toBe(true);
      expect(await core.dispatch('app.ping', { text: 'x' }, SENDER)).toMatchObject({
        ok: false,
        error: { code: 'INTERNAL' },
      });
    } finally {
      await core.close();
    }
  });
});
