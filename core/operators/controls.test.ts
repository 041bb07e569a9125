/**
 * A control change that acts on the active profile's account (a sub-account, its API keys, small
 * balances) applies only while the profile it was prepared on is active: approved by the other
 * administrator while another profile is active, it would act on another account.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../approvals/queue';
import { createAuditLog } from '../journal/audit';
import { openJournalDb } from '../journal/db';
import type { ActiveProfile } from '../types';
import { type ControlKindHandler, createControlPlane } from './controls';
import { type OperatorInfo, Operators, TEST_SCRYPT_COST } from './index';

const HOUR = 3_600_000;

describe('a control change on the active profile’s account', () => {
  it('is refused while another profile is active, nothing applied; applied once its own profile is active again', async () => {
    const db = openJournalDb(':memory:');
    const state = { at: 1_900_000_000_000, who: undefined as OperatorInfo | undefined, profile: 'p1' };
    const now = () => state.at;
    const source = { current: () => state.who };
    const audit = createAuditLog(db, {
      key: Buffer.alloc(32, 1),
      activeProfileId: () => state.profile,
      now,
      operatorName: () => state.who?.name ?? '',
    });
    const operators = new Operators({ db, scryptCost: TEST_SCRYPT_COST, now });
    const root = await operators.setup('root', 'the very first passphrase');
    const rootInfo: OperatorInfo = { id: root.id, name: root.name, role: 'admin' };
    const bea = operators.create(
      { name: 'bea', passphraseHash: await operators.hashPassphrase('chosen by root for bea'), role: 'admin' },
      rootInfo,
    );
    // Past the cooling-off, with a passphrase of her own: Bea may approve what root prepares.
    state.at += 100 * HOUR;
    operators.enter(bea);
    await operators.changePassphrase('chosen by root for bea', 'bea chose this one herself');
    const queue = new ApprovalQueue({
      db,
      audit,
      emit: () => {},
      operators: source,
      grantOf: (id) => operators.grantOf(id),
      coolingOffHours: () => 72,
      now,
    });
    const applied: unknown[] = [];
    const kind: ControlKindHandler = {
      onActiveProfile: true,
      apply: async (request) => {
        applied.push(request);
        return { created: true };
      },
    };
    const controls = createControlPlane({
      queue,
      confirm: async () => ({ accepted: true }),
      operators: source,
      administrators: () => operators.adminCount(),
      audit,
      activeProfile: () => ({ id: state.profile }) as ActiveProfile,
      expiresHours: () => 24,
      coolingOffHours: () => 72,
      kinds: { 'keys.create': kind } as never,
      now,
    });

    state.who = rootInfo;
    await expect(
      controls.submit({
        kind: 'keys.create',
        profileId: 'p1',
        title: 'Create an API key for desk_ops (UID 7)',
        changes: [{ label: 'Name', before: '—', after: 'bot' }],
        apply: { userId: 7, name: 'bot' },
        confirmLabel: 'Create key',
      }),
    ).rejects.toMatchObject({ detail: { code: 'AWAITING_APPROVAL' } });
    // Control changes wait desk-wide (profile '').
    const [item] = queue.list('', 'pending');
    const stored = queue.get(item!.id)!;

    // Bea approves it while profile p2 is active: refused, nothing applied, still pending.
    state.who = { id: bea.id, name: bea.name, role: 'admin' };
    state.profile = 'p2';
    await expect(controls.approve(stored, 'ok')).rejects.toMatchObject({
      detail: { code: 'PRECONDITION', message: expect.stringContaining('not the active profile') },
    });
    expect(applied).toEqual([]);
    expect(queue.get(item!.id)?.state).toBe('pending');

    // Back on p1: applied once.
    state.profile = 'p1';
    expect(await controls.approve(stored, 'ok')).toMatchObject({ state: 'sent' });
    expect(applied).toEqual([{ userId: 7, name: 'bot' }]);
  });
});
