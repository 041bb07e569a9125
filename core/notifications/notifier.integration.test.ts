/**
 * The core as the shells start it, against a real sandbox: a deposit injected on the platform is
 * seen by the watchers and becomes exactly one OS notification when it is done; muting deposits in
 * the settings (through the IPC contract) silences the next one.
 */
import { describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import { withSandboxCore } from '../testing/core';
import type { OsNotification } from './notifier';

const shown: OsNotification[] = [];
const depositEvents: { id: string; status: string }[] = [];
const desk = withSandboxCore({
  core: {
    emit: (name, payload) => {
      if (name === 'funding.depositChanged') {
        const change = payload as { id: string; status: string };
        depositEvents.push({ id: change.id, status: change.status });
      }
    },
    watchIntervalMs: 100,
    osNotifications: { showOsNotification: (notification) => shown.push(notification) },
  },
});
const { value } = desk;

/** Injects a deposit, waits until the watchers saw it pending, then lets the platform finish it. */
const depositUntilDone = async (amount: string): Promise<void> => {
  const injected = await control<{ id: string }>(desk.sandbox, '/deposits', {
    user_id: desk.sandbox.userId,
    currency: 'USDT',
    chain: 'TRX',
    amount,
  });
  await expect.poll(() => depositEvents.some((e) => e.id === injected.id), { timeout: 10_000 }).toBe(true);
  await control(desk.sandbox, '/advance', { seconds: 120 });
  await expect
    .poll(() => depositEvents.some((e) => e.id === injected.id && e.status === 'DONE'), { timeout: 10_000 })
    .toBe(true);
};

describe('OS notifications from the core', () => {
  it('a deposit reaching DONE gives exactly one notification with its amount, currency and profile', async () => {
    await depositUntilDone('77.5');
    const profile = desk.core.ctx.activeProfile()?.name ?? '';
    expect(profile).not.toBe('');
    const done = shown.filter((n) => n.body === 'Done: the funds are in your spot account');
    expect(done).toEqual([
      { title: `Deposit 77.5 USDT · ${profile}`, body: 'Done: the funds are in your spot account' },
    ]);
    // Nothing of the key in any text.
    const text = JSON.stringify(shown);
    expect(text).not.toContain(desk.sandbox.secret);
    expect(text).not.toContain(desk.sandbox.key);
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
