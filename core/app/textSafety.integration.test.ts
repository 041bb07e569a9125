/**
 * Text that cannot lie, through the whole core: an address, a memo or a name with a direction
 * override, a zero-width character or a look-alike letter is refused by the dispatcher (the
 * contract) and, for a caller that skips the schema, by the handler itself — before any
 * confirmation is asked and before anything reaches the platform.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SavedAddress } from '../../shared/contract/funding';
import type { ConfirmView } from '../policies/confirm';
import { autoConfirm, withSandboxCore } from '../testing/core';

const asked: ConfirmView[] = [];
const desk = withSandboxCore({ core: { confirm: autoConfirm(asked) } });
const { call, value } = desk;

let address = '';
beforeAll(async () => {
  const saved = await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
  address = (saved.find((a) => a.verified) ?? saved[0])!.address;
});

const withdrawals = () =>
  (desk.sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number }).n;

/** The attacks of issue 20: each looks like an honest value on a screen that draws text as it is. */
const ATTACKS = {
  bidiAddress: (a: string) => `${a.slice(0, 4)}\u202E${a.slice(4)}`,
  zeroWidthAddress: (a: string) => `${a.slice(0, 6)}\u200B${a.slice(6)}`,
  cyrillicAddress: (a: string) => `${a.slice(0, 3)}\u0430${a.slice(4)}`,
};

describe('text that cannot lie', () => {
  it('an address with a direction override, a zero-width space or a Cyrillic look-alike is refused by the dispatcher; nothing is asked or sent', async () => {
    const before = withdrawals();
    for (const [attack, make] of Object.entries(ATTACKS)) {
      const answer = await call('funding.withdraw', {
        requestKey: randomUUID(),
        currency: 'USDT',
        chain: 'TRX',
        address: make(address),
        amount: '10',
      });
      expect(answer, attack).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT', fields: { address: expect.any(String) } },
      });
    }
    const memo = await call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address,
      memo: '\u202E12345 :gat laer',
      amount: '10',
    });
    expect(memo).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { memo: expect.stringContaining('U+202E') } },
    });
    expect(asked).toEqual([]);
    expect(withdrawals()).toBe(before);
  });

  it('names and labels: an operator, a profile, a key, a batch or an allowlist label mixing alphabets or hiding characters is refused', async () => {
    const refusals = await Promise.all([
      call('operators.create', { name: 'm\u0430llory', role: 'viewer', passphrase: 'looks like an admin name' }),
      call('profiles.add', { kind: 'testnet', name: 'Live\u202E' }),
      call('keys.create', {
        userId: 1,
        name: 'bot\u200D',
        mode: 'classic',
        perms: { spot: 'read' },
        ipWhitelist: [],
        keepSecretInKeychain: true,
      }),
      call('policies.set', {
        limits: {},
        usdtLimits: {},
        allowlist: {
          required: true,
          coolingOffHours: 24,
          entries: [{ currency: 'USDT', chain: 'TRX', address, label: 'Tr\u0435asury cold' }],
        },
        approval: { newDestination: false, anyPush: false, expiresHours: 1 },
      }),
    ]);
    for (const refusal of refusals) expect(refusal).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(asked).toEqual([]);
  });

  it('main checks again for a caller that skips the schema (the batch runner calls handlers directly)', async () => {
    const before = withdrawals();
    await expect(
      desk.core.handlers.funding.withdraw(
        {
          requestKey: randomUUID(),
          currency: 'USDT',
          chain: 'TRX',
          address: ATTACKS.bidiAddress(address),
          amount: '10',
        },
        { sender: { url: '', isMainFrame: true } } as never,
      ),
    ).rejects.toMatchObject({
      detail: { code: 'INVALID_INPUT', fields: { address: expect.stringContaining('U+202E') } },
    });
    await expect(
      desk.core.handlers.operators.create(
        { name: 'm\u0430llory', role: 'admin', passphrase: 'looks like an admin name' },
        {} as never,
      ),
    ).rejects.toMatchObject({
      detail: { code: 'INVALID_INPUT', fields: { name: expect.stringContaining('Latin and Cyrillic') } },
    });
    expect(asked).toEqual([]);
    expect(withdrawals()).toBe(before);
    // An honest one still goes through (after the confirmation).
    expect(
      await call('funding.withdraw', {
        requestKey: randomUUID(),
        currency: 'USDT',
        chain: 'TRX',
        address,
        amount: '10',
      }),
    ).toMatchObject({ ok: true });
    expect(withdrawals()).toBe(before + 1);
  });
});
