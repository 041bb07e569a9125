/**
 * Taking a desk into a team and out of it (docs/team.md, "Joining a team"), and enrolling its
 * operators.
 *
 * Creating or joining a team is a control change of this desk (`team.join`): confirmed in the trusted
 * window, and applied by another administrator of this desk when it has two. Everything that needs
 * the preparer's passphrase happens when it is prepared (their team key is made and sealed then, the
 * genesis or the enrolment request signed with it), so the approver applies it without it: it only
 * writes what was signed and keeps the settings. Leaving (`team.leave`) is a control change too.
 *
 * The database's password goes to the keychain when the URL is read; nothing kept or logged holds it.
 */

import type { OperatorRole } from '../../shared/contract/operators';
import type { Policy } from '../../shared/contract/policies';
import { DeskFailure } from '../errors';
import type { KeyStore } from '../keychain/keyStore';
import { canAdminister } from '../operators/access';
import type { ControlKindHandler, ControlPlane } from '../operators/controls';
import type { OperatorInfo, Operators } from '../operators/operators';
import type { ScryptCost } from '../operators/passphrase';
import type { Scheduler } from '../scheduler';
import {
  applyStart,
  createOperatorKey,
  importSoloDesk,
  inFlight,
  joinTeam,
  keyFingerprint,
  operatorKeyEntry,
  type PreparedStart,
  prepareStart,
  type SignedRecord,
  type SoloDeskExport,
  signEnrolmentRequest,
  type TeamSettings,
} from '../team';
import type { TeamTimeouts } from '../team/connection';
import type { TeamDesk } from './desk';
import { readSoloDesk, type SoloJournal } from './soloExport';

export interface TeamJoiningDeps {
  readonly desk: TeamDesk;
  readonly keyStore: KeyStore;
  readonly operators: Operators;
  readonly scheduler: Scheduler;
  /** The active profile's policy on this desk (it becomes the team's first version when a team is created). */
  readonly localPolicy: () => { readonly profileName: string; readonly policy: Policy } | undefined;
  /** This desk's own journal, read when its administrator imports it into a new team. */
  readonly soloJournal: SoloJournal;
  readonly scryptCost?: ScryptCost;
  readonly timeouts?: TeamTimeouts;
}

/** What a prepared `team.join` keeps until it is applied: settings and signed records, never a secret. */
type JoinRequest =
  | {
      readonly mode: 'create';
      readonly settings: TeamSettings;
      readonly genesis: PreparedStart['genesis'];
      readonly operatorId: string;
      /** The administrator chose to import this desk's journal and audit log into the new team. */
      readonly importJournal?: boolean;
    }
  | {
      readonly mode: 'join';
      readonly settings: TeamSettings;
      readonly enrolment: SignedRecord;
      readonly operatorId: string;
    };

export const createTeamJoining = (deps: TeamJoiningDeps) => {
  const { desk } = deps;
  const options = { ...(deps.timeouts ? { timeouts: deps.timeouts } : {}) };
  /** Keys made when a change was prepared, until it is applied here (the preparer typed the passphrase). */
  const madeKeys = new Map<string, Awaited<ReturnType<typeof createOperatorKey>>>();

  /** The passphrase is the signed-in operator's (checked, and counted like a sign-in). */
  const checkPassphrase = async (who: OperatorInfo, passphrase: string) => {
    await deps.operators.verify(who.name, passphrase);
  };

  /** Sets the active profile's first team policy (the desk's own policy), signed by the team's first administrator. */
  const firstPolicy = async (policy: Policy, signerOf: OperatorInfo) => {
    const team = desk.current();
    const profile = desk.teamProfile();
    const signer = desk.signer(signerOf.id);
    if (team === undefined || profile === undefined || signer === undefined) return;
    const state = team.state();
    if (state.policy(profile) !== undefined) return;
    const pending = await team.control.prepare(state.team, signer, {
      kind: 'policy.set',
      profileId: profile,
      version: 1,
      policy: JSON.parse(JSON.stringify(policy)),
    });
    await team.control.apply(pending.changeId, signer, { fingerprint: state.fingerprint });
    await desk.applied();
  };

  /**
   * Imports this desk's journal into the team just created, signed by its first administrator: read
   * again now (what happened since the change was prepared is in it), checked, and written in one
   * transaction (team/import.ts).
   */
  const importJournal = async (operatorId: string) => {
    const team = desk.require();
    const signer = desk.signer(operatorId);
    if (signer === undefined)
      throw DeskFailure.precondition('The team’s first administrator’s key is not unlocked on this desk.');
    await importSoloDesk(
      team.db,
      team.audit,
      team.settings().deskId,
      team.state(),
      signer,
      await readSoloDesk(deps.soloJournal),
    );
  };

  /** The confirmation's line for an import: what goes into the team. */
  const importRow = (solo: SoloDeskExport, who: OperatorInfo) => ({
    label: 'This desk’s journal',
    before: 'on this desk only',
    after: `imported into the team: ${solo.movements.length} movements (${solo.movements.filter((m) => inFlight(m.state)).length} in flight: looked up on the platform, never sent again), ${solo.audit.length} audit log entries, signed by ${who.name}`,
  });

  const kinds = {
    'team.join': {
      apply: async (r, by) => {
        const request = r as unknown as JoinRequest;
        const policy = deps.localPolicy();
        if (request.mode === 'create')
          await applyStart({ settings: request.settings, genesis: request.genesis }, deps.keyStore, options);
        const made = madeKeys.get(request.operatorId);
        madeKeys.delete(request.operatorId);
        await desk.adopt(request.settings, made);
        const team = desk.require();
        if (request.mode === 'join') await team.enrolments.file(request.enrolment);
        else {
          if (policy) await firstPolicy(policy.policy, by);
          if (request.importJournal) await importJournal(request.operatorId);
        }
        return desk.status(by);
      },
      discard: async (r) => {
        const request = r as unknown as JoinRequest;
        madeKeys.delete(request.operatorId);
        await deps.keyStore.delete(operatorKeyEntry(request.settings.teamId, request.operatorId));
      },
    },
    'team.leave': {
      apply: async (_r, by) => {
        await desk.leave();
        return desk.status(by);
      },
    },
    'team.importJournal': {
      apply: async (r, by) => {
        await importJournal((r as { operatorId: string }).operatorId);
        return desk.status(by);
      },
    },
  } satisfies Record<'team.join' | 'team.leave' | 'team.importJournal', ControlKindHandler>;

  const mustAdminister = (who: OperatorInfo) => {
    if (!canAdminister(who.role))
      throw new DeskFailure({
        code: 'NOT_ALLOWED',
        message: `A ${who.role} cannot do this: an administrator of this desk does.`,
      });
  };

  return {
    kinds,

    /** Creates a team on an empty database with this desk's administrator (a control change of the desk). */
    create: async (
      controls: ControlPlane,
      who: OperatorInfo,
      input: { url: string; name: string; passphrase: string; importJournal?: boolean },
    ) => {
      mustAdminister(who);
      if (desk.configured()) throw DeskFailure.precondition('This desk is already in a team.', 'Leave it first.');
      await checkPassphrase(who, input.passphrase);
      // Read (and its audit log checked) now, so a journal that cannot be imported is refused before anything is made.
      const solo = input.importJournal ? await readSoloDesk(deps.soloJournal) : undefined;
      const prepared = await prepareStart(
        { url: input.url, teamName: input.name, admin: { id: who.id, name: who.name, passphrase: input.passphrase } },
        deps.keyStore,
        { ...options, ...(deps.scryptCost ? { scryptCost: deps.scryptCost } : {}) },
      );
      madeKeys.set(who.id, prepared.admin);
      return controls.submit<unknown>({
        kind: 'team.join',
        profileId: '',
        title: `Create the team “${input.name}” with this desk`,
        changes: [
          { label: 'This desk', before: 'works alone', after: `first desk of the team “${input.name}”` },
          { label: 'Team database', before: '—', after: prepared.settings.url },
          {
            label: 'Team fingerprint (the other desks join with it)',
            before: '—',
            after: prepared.settings.fingerprint,
          },
          {
            label: 'Team administrator',
            before: '—',
            after: `${who.name} (key ${keyFingerprint(prepared.admin.publicKey)})`,
          },
          ...(solo ? [importRow(solo, who)] : []),
        ],
        apply: {
          mode: 'create',
          settings: prepared.settings,
          genesis: prepared.genesis,
          operatorId: who.id,
          ...(solo ? { importJournal: true } : {}),
        } as unknown as Record<string, unknown>,
        confirmLabel: 'Create the team',
        note: 'Operators, roles, policies, approvals and the movement journal are then shared through this database; API keys stay in each desk’s keychain.',
      });
    },

    /** Joins the team with this fingerprint and asks to enrol the signed-in operator (a control change of the desk). */
    join: async (
      controls: ControlPlane,
      who: OperatorInfo,
      input: { url: string; fingerprint: string; passphrase: string; role: OperatorRole },
    ) => {
      mustAdminister(who);
      if (desk.configured()) throw DeskFailure.precondition('This desk is already in a team.', 'Leave it first.');
      await checkPassphrase(who, input.passphrase);
      const settings = await joinTeam({ url: input.url, fingerprint: input.fingerprint }, deps.keyStore, options);
      const signer = await createOperatorKey(deps.keyStore, settings.teamId, who.id, input.passphrase, deps.scryptCost);
      madeKeys.set(who.id, signer);
      const enrolment = signEnrolmentRequest(
        settings.teamId,
        signer,
        { name: who.name, role: input.role },
        settings.deskId,
        deps.scheduler.wallNow(),
      );
      return controls.submit<unknown>({
        kind: 'team.join',
        profileId: '',
        title: 'Join a team with this desk',
        changes: [
          { label: 'This desk', before: 'works alone', after: 'a desk of the team' },
          { label: 'Team database', before: '—', after: settings.url },
          { label: 'Team fingerprint', before: '—', after: settings.fingerprint },
          {
            label: `${who.name}'s enrolment`,
            before: '—',
            after: `requested as ${input.role} (key ${keyFingerprint(signer.publicKey)})`,
          },
        ],
        apply: { mode: 'join', settings, enrolment, operatorId: who.id } as unknown as Record<string, unknown>,
        confirmLabel: 'Join the team',
        note: 'A team administrator then enrols you: compare your key’s fingerprint with them.',
      });
    },

    /**
     * Imports this desk's journal into its team, after the team was created without it (or the
     * import at creation did not happen): the signed-in team administrator signs it; refused unless
     * the team is still empty and holds no import (a control change of the desk).
     */
    importJournal: async (controls: ControlPlane, who: OperatorInfo) => {
      const team = desk.require();
      desk.requireSigner(who);
      if (team.state().operator(who.id)?.role !== 'admin')
        throw new DeskFailure({ code: 'NOT_ALLOWED', message: 'A team administrator imports a desk’s journal.' });
      const solo = await readSoloDesk(deps.soloJournal);
      return controls.submit<unknown>({
        kind: 'team.importJournal',
        profileId: '',
        title: 'Import this desk’s journal into the team',
        changes: [importRow(solo, who)],
        apply: { operatorId: who.id },
        confirmLabel: 'Import the journal',
        note: 'Only into a team that holds no movement or audit entry yet, and once. Imported movements are history: no desk sends them.',
      });
    },

    /** Takes the desk out of its team (a control change of the desk: this desk's or the team's administrator). */
    leave: async (controls: ControlPlane, who: OperatorInfo) => {
      const local = deps.operators.get(who.id)?.role;
      if (!canAdminister(who.role) && local !== 'admin')
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: 'Only an administrator takes this desk out of its team.',
        });
      const kept = desk.settingsKept();
      if (kept === undefined) throw DeskFailure.precondition('This desk is not in a team.');
      return controls.submit<unknown>({
        kind: 'team.leave',
        profileId: '',
        title: 'Take this desk out of its team',
        changes: [{ label: 'This desk', before: `a desk of the team at ${kept.url}`, after: 'works alone' }],
        apply: {},
        confirmLabel: 'Leave the team',
        note: 'Movements this desk prepared stay in the team for the other desks; this desk sends nothing of the team any more.',
      });
    },

    /** The signed-in operator makes their team key here and asks to be enrolled. */
    requestEnrolment: async (who: OperatorInfo, input: { passphrase: string; role: OperatorRole }) => {
      const team = desk.require();
      const kept = desk.settingsKept() as TeamSettings;
      await checkPassphrase(who, input.passphrase);
      if (team.state().operator(who.id)?.role !== undefined)
        throw DeskFailure.precondition(`${who.name} is already enrolled in the team.`);
      const signer = await createOperatorKey(deps.keyStore, kept.teamId, who.id, input.passphrase, deps.scryptCost);
      await team.enrolments.request(signer, { name: who.name, role: input.role }, kept.deskId);
      desk.adoptKey(signer);
      await desk.refresh();
      return desk.status(who);
    },

    /** A team administrator prepares an operator's enrolment (applied at once while the team has one administrator). */
    prepareEnrolment: async (who: OperatorInfo, operatorId: string) => {
      const team = desk.require();
      const signer = desk.requireSigner(who);
      const pending = await team.enrolments.prepare(operatorId, team.control, signer);
      const state = team.state();
      if (!state.fourEyes) await team.control.apply(pending.changeId, signer, { fingerprint: state.fingerprint });
      await desk.applied();
      return desk.status(who);
    },
  };
};

export type TeamJoining = ReturnType<typeof createTeamJoining>;
