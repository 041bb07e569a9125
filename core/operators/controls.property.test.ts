/**
 * Four eyes cannot be talked around (docs/approvals.md, "Control changes"): for random sequences of
 * control changes (operators created, given roles, given new passphrases by whoever is at the desk),
 * movements and control changes prepared, approvals tried by anyone and time passing, no approval
 * ever goes through where
 *
 * - the approver prepared the item themselves (their own movement or their own control change);
 * - a control change is approved by anyone but an administrator;
 * - the approver was created, given their role or their passphrase by the item's preparer less than
 *   the cooling-off period before (one person with two names);
 * - the approver's passphrase was chosen by the item's preparer (creating them or resetting it) and
 *   the approver has not chosen their own since (whoever knows it could be them).
 *
 * The grants are modelled here from what each step applied, not read from the implementation.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../shared/contract/operators';
import { type ApprovalQueue, ApprovalQueue as Queue, type StoredApproval } from '../approvals/queue';
import { createAuditLog } from '../journal/audit';
import { openJournalDb } from '../journal/db';
import { type OperatorInfo, Operators, TEST_SCRYPT_COST } from '.';
import { type ControlKindHandler, type ControlPlane, createControlPlane } from './controls';
import { operatorControlKinds } from './handlers';

const HOUR = 3_600_000;
const COOLING_OFF_HOURS = 72;
const ROLES: readonly OperatorRole[] = ['viewer', 'maker', 'approver', 'admin'];

type Step =
  | { readonly t: 'create'; readonly actor: number; readonly role: OperatorRole }
  | { readonly t: 'role'; readonly actor: number; readonly target: number; readonly role: OperatorRole }
  | { readonly t: 'reset'; readonly actor: number; readonly target: number }
  | { readonly t: 'ownPassphrase'; readonly actor: number }
  | { readonly t: 'movement'; readonly actor: number }
  | { readonly t: 'approve'; readonly actor: number; readonly item: number }
  | { readonly t: 'time'; readonly hours: number };

/** Weighted so that sequences often reach an approval after grants and the cooling-off. */
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('create' as const), actor: fc.nat(), role: fc.constantFrom(...ROLES) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('role' as const),
      actor: fc.nat(),
      target: fc.nat(),
      role: fc.constantFrom(...ROLES),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('reset' as const), actor: fc.nat(), target: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('ownPassphrase' as const), actor: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('movement' as const), actor: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('approve' as const), actor: fc.nat(), item: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 100 }) }) },
);

interface Desk {
  readonly operators: Operators;
  readonly queue: ApprovalQueue;
  readonly controls: ControlPlane;
  at: number;
  who: OperatorInfo | undefined;
}

const desk = async (): Promise<Desk> => {
  const db = openJournalDb(':memory:');
  const state = { at: 1_900_000_000_000, who: undefined as OperatorInfo | undefined };
  const now = () => state.at;
  const source = { current: () => state.who };
  const audit = createAuditLog(db, {
    key: Buffer.alloc(32, 1),
    activeProfileId: () => 'p1',
    now,
    operatorName: () => state.who?.name ?? '',
  });
  const operators = new Operators({ db, scryptCost: TEST_SCRYPT_COST, now });
  await operators.setup('root', 'the very first passphrase');
  const queue = new Queue({
    db,
    audit,
    emit: () => {},
    operators: source,
    grantOf: (id) => operators.grantOf(id),
    coolingOffHours: () => COOLING_OFF_HOURS,
    now,
  });
  const controls = createControlPlane({
    queue,
    confirm: async () => ({ accepted: true }),
    operators: source,
    administrators: () => operators.adminCount(),
    audit,
    activeProfile: () => undefined,
    expiresHours: () => 10_000,
    coolingOffHours: () => COOLING_OFF_HOURS,
    kinds: operatorControlKinds(operators) as unknown as Record<string, ControlKindHandler> as never,
    now,
  });
  return Object.assign(state, { operators, queue, controls });
};

const info = (o: { id: string; name: string; role: OperatorRole }): OperatorInfo => ({
  id: o.id,
  name: o.name,
  role: o.role,
});

describe('four eyes under any sequence of control changes', () => {
  it('no one approves their own movement or control change, nor what their grantor prepared within the cooling-off', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60, size: 'max' }), async (steps) => {
        const d = await desk();
        /** operator id → who last granted them anything (created, role, passphrase) and when: the model. */
        const grants = new Map<string, { by: string; at: number }>();
        /** operator id → who chose their current passphrase (absent: they chose it themselves). */
        const chosenBy = new Map<string, string>();
        /** Every operator's current passphrase (the test knows them all, as one person could). */
        const passphrases = new Map<string, string>([['root', 'the very first passphrase']]);
        const applied = (kind: string, request: Record<string, unknown>, by: string) => {
          const id = kind === 'operators.create' ? d.operators.byName(String(request.name))?.id : String(request.id);
          if (!id || kind === 'operators.remove') return;
          grants.set(id, { by, at: d.at });
          if (kind !== 'operators.changeRole') {
            chosenBy.set(id, by);
            passphrases.set(String(request.name), chosenFor.get(String(request.passphraseHash)) as string);
          }
        };
        let names = 0;
        /** Passphrases chosen by an actor, by their hash (what a prepared change keeps). */
        const chosenFor = new Map<string, string>();
        const chosen = async (name: string, rest: Record<string, unknown>) => {
          const passphrase = `chosen for ${name} at ${d.at}`;
          const passphraseHash = await d.operators.hashPassphrase(passphrase);
          chosenFor.set(passphraseHash, passphrase);
          return { ...rest, name, passphraseHash };
        };
        for (const s of steps) {
          const everyone = d.operators.list();
          const pick = (n: number) => everyone[n % everyone.length] as (typeof everyone)[number];
          if (s.t === 'time') {
            d.at += s.hours * HOUR;
            continue;
          }
          const actor = pick(s.actor);
          d.who = info(actor);
          try {
            if (s.t === 'ownPassphrase') {
              const next = `own passphrase of ${actor.name} ${d.at}`;
              d.operators.enter(actor);
              await d.operators.changePassphrase(passphrases.get(actor.name) as string, next);
              passphrases.set(actor.name, next);
              chosenBy.delete(actor.id);
              continue;
            }
            if (s.t === 'create' || s.t === 'role' || s.t === 'reset') {
              const target = s.t === 'create' ? undefined : pick(s.target);
              const change =
                s.t === 'create'
                  ? {
                      kind: 'operators.create' as const,
                      apply: await chosen(`op${++names}`, { role: s.role }),
                    }
                  : s.t === 'role'
                    ? {
                        kind: 'operators.changeRole' as const,
                        apply: { id: target?.id, name: target?.name, before: target?.role, role: s.role },
                      }
                    : {
                        kind: 'operators.resetPassphrase' as const,
                        apply: await chosen(String(target?.name), { id: target?.id }),
                      };
              if (s.t === 'role' && target && d.operators.roleProblem(target.id, s.role)) continue;
              await d.controls.submit({
                ...change,
                profileId: '',
                title: change.kind,
                changes: [],
                confirmLabel: 'Apply',
              });
              applied(change.kind, change.apply, actor.id);
            } else if (s.t === 'movement') {
              d.queue.request(
                {
                  profileId: 'p1',
                  kind: 'withdrawal',
                  requestKey: randomUUID(),
                  request: {},
                  currency: 'USDT',
                  amount: '60',
                  destination: 'T',
                  summary: 'Withdraw 60 USDT',
                  reasons: ['above 50'],
                  expiresAt: d.at + 1_000 * HOUR,
                },
                info(actor),
              );
            } else {
              const pending = d.queue.list('p1', 'pending');
              if (pending.length === 0) continue;
              const a = d.queue.get((pending[s.item % pending.length] as { id: string }).id) as StoredApproval;
              // Every operator tries, from the chosen one on: the first the rules let through decides it.
              for (let i = 0; i < everyone.length; i++) {
                const approver = info(pick(s.actor + i));
                d.who = approver;
                try {
                  if (a.kind === 'control') await d.controls.approve(a, 'ok');
                  else if (!d.queue.approve(a, d.queue.approver(a), 'ok')) break;
                } catch (error) {
                  if ((error as { detail?: { code?: string } }).detail?.code === 'NOT_ALLOWED') continue;
                  throw error;
                }
                // It went through: check it against the rules, from the model.
                expect(approver.id).not.toBe(a.makerId);
                if (a.kind === 'control') expect(approver.role).toBe('admin');
                else expect(['approver', 'admin']).toContain(approver.role);
                const grant = grants.get(approver.id);
                if (grant && grant.by === a.makerId)
                  expect(d.at - grant.at).toBeGreaterThanOrEqual(COOLING_OFF_HOURS * HOUR);
                expect(chosenBy.get(approver.id)).not.toBe(a.makerId);
                if (a.kind === 'control' && d.queue.get(a.id)?.state === 'sent') {
                  const request = a.request as { control: { kind: string }; apply: Record<string, unknown> };
                  applied(request.control.kind, request.apply, a.makerId);
                }
                break;
              }
            }
          } catch (error) {
            // Refusals (NOT_ALLOWED, AWAITING_APPROVAL, PRECONDITION) are the point; anything else is a bug.
            const code = (error as { detail?: { code?: string } }).detail?.code;
            if (!['NOT_ALLOWED', 'AWAITING_APPROVAL', 'PRECONDITION'].includes(code ?? '')) throw error;
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
