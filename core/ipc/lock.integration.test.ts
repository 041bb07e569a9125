/**
 * The app lock in the real core against a sandbox: locking waits for a money movement on the
 * wire, then the signing secret leaves memory and every non-app operation is refused; unlocking
 * reads the key from the keychain again and everything works as before.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import { TEST_ADMIN, withSandboxCore } from '../testing/core';

const desk = withSandboxCore();

const transfer = (amount: string) =>
  desk.call('transfers.send', {
    requestKey: randomUUID(),
    kind: 'own',
    currency: 'USDT',
    from: 'spot',
    to: 'futures',
    settle: 'usdt',
    amount,
  });

describe('app.lock in the core', () => {
  it('waits for a transfer on the wire, forgets the key, refuses with LOCKED, and unlocks from the keychain', async () => {
    // The transfer's request takes 700 ms: the lock is asked for meanwhile.
    await control(desk.sandbox, '/faults', {
      rules: [{ path: '/wallet/transfers', kind: 'delay', ms: 700, times: 1 }],
    });
    const inFlight = transfer('1');
    await expect.poll(() => desk.core.lock.inFlight).toBe(1);
    const locking = desk.call('app.lock', { reason: 'idle' });
    expect(await desk.call('app.lockState', {})).toMatchObject({
      ok: true,
      value: { state: 'locking' },
    });
    expect(desk.core.profiles.currentConnection()?.hasKey).toBe(true); // not while the transfer runs

    expect(await inFlight).toMatchObject({ ok: true, value: { state: 'done' } });
    expect(await locking).toMatchObject({ ok: true, value: { state: 'locked', reason: 'idle' } });
    expect(desk.core.profiles.currentConnection()?.hasKey).toBe(false);
    expect(await desk.call('balances.spot', {})).toMatchObject({
      ok: false,
      error: { code: 'LOCKED' },
    });
    expect(await transfer('2')).toMatchObject({ ok: false, error: { code: 'LOCKED' } });

    // Unlocking needs the operator's passphrase (core/operators/operators.integration.test.ts).
    expect(await desk.call('app.unlock', { passphrase: 'not the passphrase' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED', label: 'WRONG_PASSPHRASE' },
    });
    expect(desk.core.profiles.currentConnection()?.hasKey).toBe(false);
    expect(await desk.call('app.unlock', { passphrase: TEST_ADMIN.passphrase })).toEqual({
      ok: true,
      value: { state: 'unlocked', operator: TEST_ADMIN.name },
    });
    expect(desk.core.profiles.currentConnection()?.hasKey).toBe(true);
    expect(await desk.call('balances.spot', {})).toMatchObject({ ok: true });
    expect(await transfer('2')).toMatchObject({ ok: true, value: { state: 'done' } });

    const audit = await desk.call('activity.auditLog', { text: 'app.' });
    const actions = (audit.ok ? (audit.value as { action: string }[]) : []).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['app.lock', 'app.unlock']));
  });
});
