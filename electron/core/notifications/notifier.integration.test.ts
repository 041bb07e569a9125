/**
 * The core as the shells start it, against a real sandbox: a deposit injected on the platform is
 * seen by the watchers and becomes exactly one OS notification when it is done; muting deposits in
 * the settings (through the IPC contract) silences the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../../../sandbox/testing/harness';
import type { Core } from '../core';
import { asRenderer, startTestCore, type TestCore } from '../testing/core';
import type { OsNotification } from './notifier';

let sandbox: SandboxHandle;
let testCore: TestCore;
let core: Core;
const shown: OsNotification[] = [];
const depositEvents: { id: string; status: string }[] = [];

const value = async <T>(operation: string, input: unknown): Promise<T> => {
  const result = await core.dispatch(operation, input, asRenderer);
  if (!result.ok) throw new Error(`${operation}: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

/** Injects a deposit, waits until the watchers saw it pending, then lets the platform finish it. */
const depositUntilDone = async (amount: string): Promise<void> => {
  const injected = await control<{ id: string }>(sandbox, '/deposits', {
    user_id: sandbox.userId,
    currency: 'USDT',
    chain: 'TRX',
    amount,
  });
  await expect.poll(() => depositEvents.some((e) => e.id === injected.id), { timeout: 10_000 }).toBe(true);
  await control(sandbox, '/advance', { seconds: 120 });
  await expect
    .poll(() => depositEvents.some((e) => e.id === injected.id && e.status === 'DONE'), { timeout: 10_000 })
    .toBe(true);
};

beforeAll(async () => {
  sandbox = await startTestSandbox({ market: 'off' });
  testCore = await startTestCore(sandbox, {
    emit: (name, payload) => {
      if (name === 'funding.depositChanged') {
        const change = payload as { id: string; status: string };
        depositEvents.push({ id: change.id, status: change.status });
      }
    },
    watchIntervalMs: 100,
    osNotifications: { showOsNotification: (notification) => shown.push(notification) },
  });
  core = testCore.core;
});

afterAll(async () => {
  await testCore?.close();
  await sandbox?.close();
});

describe('OS notifications from the core', () => {
  it('a deposit reaching DONE gives exactly one notification with its amount, currency and profile', async () => {
    await depositUntilDone('77.5');
    const profile = core.ctx.activeProfile()?.name ?? '';
    expect(profile).not.toBe('');
    const done = shown.filter((n) => n.body.endsWith('(DONE)'));
    expect(done).toEqual([
      { title: `Deposit 77.5 USDT · ${profile}`, body: 'Done: the funds are in your spot account (DONE)' },
    ]);
    // Nothing of the key in any text.
    const text = JSON.stringify(shown);
    expect(text).not.toContain(sandbox.secret);
    expect(text).not.toContain(sandbox.key);
  });

  it('muting deposits in the settings silences the next deposit', async () => {
    // The shape from before muted profiles and minimums existed: still accepted, those default to none.
    const view = await value<{ settings: Record<string, unknown>; available: boolean }>('app.setNotificationSettings', {
      enabled: true,
      deposits: false,
      withdrawals: true,
      pushes: true,
    });
    expect(view).toEqual({
      settings: { enabled: true, deposits: false, withdrawals: true, pushes: true, mutedProfiles: [], minAmounts: {} },
      available: true,
    });
    const before = shown.length;
    await depositUntilDone('12');
    expect(shown.slice(before)).toEqual([]);
    expect((await value<{ settings: { deposits: boolean } }>('app.notificationSettings', {})).settings.deposits).toBe(
      false,
    );
  });
});
