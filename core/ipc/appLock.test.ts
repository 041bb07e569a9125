import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type Handlers, operation } from '../../shared/ipc/define';
import { AppLock } from './appLock';
import { createDispatcher } from './dispatcher';

const contract = {
  app: { ping: operation('Ping.', z.object({}).strict(), z.object({ pong: z.boolean() })) },
  money: { send: operation('Sends.', z.object({ amount: z.string() }).strict(), z.object({ id: z.string() })) },
};
const OURS = { url: 'app://desk/index.html', isMainFrame: true };

const setup = (restore: () => Promise<void> = async () => {}) => {
  const order: string[] = [];
  let release: (() => void) | undefined;
  let slow = false;
  const send = vi.fn(async ({ amount }: { amount: string }) => {
    order.push(`send ${amount} started`);
    if (slow) await new Promise<void>((done) => (release = done));
    order.push(`send ${amount} settled`);
    return { id: `tx-${amount}` };
  });
  const lock = new AppLock({
    settle: async () => {
      order.push('background settled');
    },
    secure: () => order.push('secrets forgotten'),
    restore: async () => {
      await restore();
      order.push('secrets read again');
    },
  });
  const handlers: Handlers<typeof contract> = { app: { ping: async () => ({ pong: true }) }, money: { send } };
  const dispatch = createDispatcher(contract, handlers, { trustedOrigins: ['app://desk'], lock });
  return {
    lock,
    dispatch,
    send,
    order,
    slowNext: () => {
      slow = true;
    },
    release: () => release?.(),
  };
};

describe('the app lock at the IPC gate', () => {
  it('refuses everything outside app.* with LOCKED while locked, and works again once unlocked', async () => {
    const { lock, dispatch, send } = setup();
    expect(await lock.lock('manual')).toMatchObject({ state: 'locked', reason: 'manual' });
    expect(await dispatch('money.send', { amount: '1' }, OURS)).toMatchObject({
      ok: false,
      error: { code: 'LOCKED' },
    });
    // Refused before validation: even a malformed payload only learns that the app is locked.
    expect(await dispatch('money.send', { nonsense: true }, OURS)).toMatchObject({
      ok: false,
      error: { code: 'LOCKED' },
    });
    expect(send).not.toHaveBeenCalled();
    expect(await dispatch('app.ping', {}, OURS)).toEqual({ ok: true, value: { pong: true } });

    expect(await lock.unlock()).toEqual({ state: 'unlocked' });
    expect(await dispatch('money.send', { amount: '2' }, OURS)).toEqual({ ok: true, value: { id: 'tx-2' } });
  });

  it('never cuts a call in flight: the gate closes at once, the secrets go only after it settled', async () => {
    const { lock, dispatch, order, slowNext, release } = setup();
    slowNext();
    const inFlight = dispatch('money.send', { amount: '5' }, OURS);
    await vi.waitFor(() => expect(order).toContain('send 5 started'));
    const locking = lock.lock('idle');
    expect(lock.view().state).toBe('locking');
    // A new call is refused at once, while the running one carries on.
    expect(await dispatch('money.send', { amount: '6' }, OURS)).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    expect(order).not.toContain('secrets forgotten');
    release();
    expect(await inFlight).toEqual({ ok: true, value: { id: 'tx-5' } });
    expect(await locking).toMatchObject({ state: 'locked', reason: 'idle' });
    expect(order).toEqual(['send 5 started', 'send 5 settled', 'background settled', 'secrets forgotten']);
  });

  it('stays locked when the secrets cannot be read back (the keychain refused)', async () => {
    const { lock, dispatch } = setup(async () => {
      throw new Error('keychain locked');
    });
    await lock.lock('manual');
    await expect(lock.unlock()).rejects.toThrow('keychain locked');
    expect(lock.view().state).toBe('locked');
    expect(await dispatch('money.send', { amount: '1' }, OURS)).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
  });

  it('locking twice is one lock; an unlock queued behind a lock waits for it', async () => {
    const { lock, order } = setup();
    const [a, b] = await Promise.all([lock.lock('idle'), lock.lock('manual')]);
    expect([a.state, b.state, a.reason]).toEqual(['locked', 'locked', 'idle']);
    expect(order.filter((step) => step === 'secrets forgotten')).toHaveLength(1);
    const relock = lock.lock('manual');
    expect(await lock.unlock()).toEqual({ state: 'unlocked' });
    expect((await relock).state).toBe('locked'); // was already locked: a no-op, then the unlock
  });
});
