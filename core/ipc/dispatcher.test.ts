import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type Handlers, operation } from '../../shared/ipc/define';
import { DeskFailure } from '../errors';
import { createDispatcher, createSenderCheck, type SenderInfo } from './dispatcher';

const testContract = {
  money: {
    send: operation(
      'Sends an amount.',
      z.object({ amount: z.string().regex(/^\d+(\.\d+)?$/), to: z.string().min(1) }).strict(),
      z.object({ id: z.string() }),
    ),
    broken: operation('Returns the wrong shape.', z.object({}).strict(), z.object({ id: z.string() })),
    refused: operation('Fails with a DeskFailure.', z.object({}).strict(), z.object({})),
    platform: operation('Fails like the API client.', z.object({}).strict(), z.object({})),
    crash: operation('Throws a plain error.', z.object({}).strict(), z.object({})),
  },
};

const OURS: SenderInfo = { url: 'app://desk/index.html', isMainFrame: true };

const setup = () => {
  const send = vi.fn(async (input: { amount: string; to: string }) => ({ id: `tx-${input.amount}` }));
  const handlers: Handlers<typeof testContract> = {
    money: {
      send,
      // Deliberately wrong at run time (a bug the output check must catch).
      broken: async () => ({ id: 42 }) as unknown as { id: string },
      refused: async () => {
        throw DeskFailure.precondition('No profile is connected.', 'Add a profile in Settings.');
      },
      platform: async () => {
        throw Object.assign(new Error('raw'), {
          toIpcError: () => ({
            code: 'PLATFORM' as const,
            message: 'Not enough balance.',
            label: 'BALANCE_NOT_ENOUGH',
            requestId: 'r-1',
          }),
        });
      },
      crash: async () => {
        throw new Error('secret=abc123 leaked in a stack');
      },
    },
  };
  const logError = vi.fn();
  const dispatch = createDispatcher(testContract, handlers, { trustedOrigins: ['app://desk'], logError });
  return { dispatch, send, logError };
};

describe('dispatcher: the sender check comes first', () => {
  it('runs the handler for our main frame', async () => {
    const { dispatch, send } = setup();
    await expect(dispatch('money.send', { amount: '1.5', to: 'a' }, OURS)).resolves.toEqual({
      ok: true,
      value: { id: 'tx-1.5' },
    });
    expect(send).toHaveBeenCalledOnce();
  });

  it.each([
    ['another origin', { url: 'https://evil.example/', isMainFrame: true }],
    ['a look-alike host', { url: 'app://desk.evil/index.html', isMainFrame: true }],
    ['our origin in an iframe', { url: 'app://desk/index.html', isMainFrame: false }],
    ['an empty URL (frame gone)', { url: '', isMainFrame: true }],
    ['about:blank', { url: 'about:blank', isMainFrame: true }],
    ['a file URL', { url: 'file:///etc/passwd', isMainFrame: true }],
  ])('refuses %s with FORBIDDEN_SENDER before validating anything', async (_name, sender) => {
    const { dispatch, send } = setup();
    const result = await dispatch('money.send', { amount: '1', to: 'a' }, sender);
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    // Even an unknown operation from a forged sender learns nothing about the contract.
    expect(await dispatch('nope.nothing', {}, sender)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
    expect(send).not.toHaveBeenCalled();
  });

  it('createSenderCheck accepts only listed origins in the main frame', () => {
    const check = createSenderCheck(['https://treasury-desk.invalid']);
    expect(check({ url: 'https://treasury-desk.invalid/index.html', isMainFrame: true })).toBe(true);
    expect(check({ url: 'https://treasury-desk.invalid:8443/', isMainFrame: true })).toBe(false);
    expect(check({ url: 'http://treasury-desk.invalid/', isMainFrame: true })).toBe(false);
    expect(check({ url: 'https://treasury-desk.invalid/', isMainFrame: false })).toBe(false);
  });
});

describe('dispatcher: operations and payloads', () => {
  it.each([
    'money.nothing',
    'nothing.send',
    'money',
    '',
    '.send',
    'money.',
    '__proto__.toString',
    'money.constructor',
    'money.hasOwnProperty',
  ])('refuses the unknown operation “%s”', async (name) => {
    const { dispatch } = setup();
    expect(await dispatch(name, {}, OURS)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
  });

  it('refuses an invalid payload with per-field messages and never calls the handler', async () => {
    const { dispatch, send } = setup();
    const result = await dispatch('money.send', { amount: '1e9', to: '' }, OURS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(result.error.fields ?? {}).sort()).toEqual(['amount', 'to']);
    expect(send).not.toHaveBeenCalled();
  });

  it.each([
    ['a missing payload', undefined],
    ['null', null],
    ['an array', ['1', 'a']],
    ['an extra key', { amount: '1', to: 'a', admin: true }],
    ['a number amount', { amount: 1, to: 'a' }],
  ])('refuses %s', async (_name, payload) => {
    const { dispatch, send } = setup();
    expect(await dispatch('money.send', payload, OURS)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(send).not.toHaveBeenCalled();
  });
});

describe('dispatcher: what handlers return or throw', () => {
  it('turns an answer that breaks the output schema into INTERNAL and logs it', async () => {
    const { dispatch, logError } = setup();
    expect(await dispatch('money.broken', {}, OURS)).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(logError).toHaveBeenCalledWith('money.broken', expect.anything());
  });

  it('passes a DeskFailure through as data', async () => {
    const { dispatch } = setup();
    expect(await dispatch('money.refused', {}, OURS)).toEqual({
      ok: false,
      // A refusal by the app itself: certainly nothing was sent (the screens decide on `delivery`).
      error: {
        code: 'PRECONDITION',
        message: 'No profile is connected.',
        advice: 'Add a profile in Settings.',
        delivery: 'not_sent',
      },
    });
  });

  it('uses the platform error’s own description (label and request id)', async () => {
    const { dispatch } = setup();
    expect(await dispatch('money.platform', {}, OURS)).toEqual({
      ok: false,
      error: { code: 'PLATFORM', message: 'Not enough balance.', label: 'BALANCE_NOT_ENOUGH', requestId: 'r-1' },
    });
  });

  it('hides an unexpected error’s message from the renderer and logs it instead', async () => {
    const { dispatch, logError } = setup();
    const result = await dispatch('money.crash', {}, OURS);
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain('abc123');
    expect(logError).toHaveBeenCalledOnce();
  });
});
