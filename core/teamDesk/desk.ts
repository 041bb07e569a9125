/**
 * This desk in a team (docs/team.md, "Wiring"): whether it is in one, the open team database and its
 * verified control state, the signed-in operator's team signing key, and what the frame shows on
 * every screen (the database away, a control chain that does not verify, movements blocked because
 * their signatures did not verify).
 *
 * Without team settings nothing here runs (solo, the default). With them the desk opens the team at
 * start and keeps trying while the database is away (every 2 s; the frame says so meanwhile): nothing
 * that needs the shared journal is done until it is open (new movements, approvals, control changes
 * are refused with a clear message), while the platform's balances and histories still show.
 */
import type { OperatorRole } from '../../shared/contract/operators';
import { DEFAULT_POLICY, Policy } from '../../shared/contract/policies';
import type { TeamStatus } from '../../shared/contract/team';
import { DeskFailure } from '../errors';
import type { Settings } from '../journal/types';
import type { KeyStore } from '../keychain/keyStore';
import type { OperatorInfo } from '../operators/operators';
import { BACKGROUND, type Scheduler, type Timer } from '../scheduler';
import {
  type ControlState,
  isFinal,
  keyFingerprint,
  type OpenTeam,
  type OperatorSigner,
  openTeam,
  type StoredEnrolment,
  type StoredMovement,
  type TeamChange,
  type TeamIntegrity,
  type TeamSettings,
  type TeamTimers,
  TeamUnavailable,
  unlockOperatorKey,
} from '../team';
import type { TeamTimeouts } from '../team/connection';
import type { ActiveProfile, Emit } from '../types';

/** Where the desk keeps its team settings (main's settings; no secret: the password is in the keychain). */
export const TEAM_SETTINGS_KEY = 'team.settings';
/** How often a desk asks again for a team database it could not open. */
const RETRY_MS = 2_000;
/** …and for one whose control chain did not verify (an administrator must mend it first). */
const REFUSED_RETRY_MS = 10_000;

/**
 * The team's name for a platform account: its endpoint's host and the account's user id — the same
 * account on every desk that holds a key of it (a profile's key may live on one desk or several).
 */
export const teamProfileId = (profile: ActiveProfile | undefined): string | undefined => {
  if (profile?.userId === undefined) return undefined;
  try {
    return `acct:${new URL(profile.baseUrl).host}:${profile.userId}`;
  } catch {
    return undefined;
  }
};

/** The scheduler as the team layer's timers (the database's probe, the live connection's back-off). */
const timersOf = (scheduler: Scheduler): TeamTimers => ({
  setTimeout: (callback, ms) => scheduler.setTimeout(callback, ms, BACKGROUND),
  clearTimeout: (handle) => (handle as Timer | undefined)?.cancel(),
});

export interface TeamDeskDeps {
  readonly keyStore: KeyStore;
  readonly settings: Settings;
  readonly scheduler: Scheduler;
  readonly emit: Emit;
  readonly activeProfile: () => ActiveProfile | undefined;
  /** A team URL given at start (`--team`, TREASURY_DESK_TEAM_URL) that Settings → Team offers to join. */
  readonly offeredUrl?: string | undefined;
  readonly timeouts?: TeamTimeouts;
  readonly logError?: (what: string, error: unknown) => void;
}

/** The team journal's movement of a request key now (TeamDesk.movementNow); `M`: what a caller reads of it. */
export type TeamMovementNow<M = StoredMovement> =
  | { readonly state: 'final'; readonly movement: M }
  | { readonly state: 'open' | 'absent' | 'unknown' };

type Phase = 'solo' | 'connecting' | 'open' | 'refused';

export class TeamDesk {
  private kept: TeamSettings | undefined;
  private team: OpenTeam | undefined;
  private phase: Phase;
  private problem: string | undefined;
  private since: number | undefined;
  private connecting: Promise<void> | undefined;
  private retry: Timer | undefined;
  private key: OperatorSigner | undefined;
  private blocked: TeamStatus['blocked'] = [];
  private enrolments: StoredEnrolment[] = [];
  /** Roles as last verified: what the dispatcher uses while the database is away. */
  private lastState: ControlState | undefined;
  private readonly changeListeners = new Set<(change: TeamChange) => void>();
  private readonly openListeners = new Set<() => void>();
  private readonly backListeners = new Set<() => void>();
  private stopped = false;
  /** Whether this run has taken back the leases its previous run left (once, at the first open). */
  private ownLeasesExpired = false;

  constructor(private readonly deps: TeamDeskDeps) {
    this.kept = deps.settings.get<TeamSettings | undefined>(TEAM_SETTINGS_KEY, undefined);
    this.phase = this.kept === undefined ? 'solo' : 'connecting';
  }

  /** Whether this desk is in a team (then money, approvals and control changes go through it). */
  configured(): boolean {
    return this.kept !== undefined;
  }

  settingsKept(): TeamSettings | undefined {
    return this.kept;
  }

  /** Opens the team (when configured); keeps trying in the background while it cannot. */
  start(): void {
    if (this.kept !== undefined) void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retry?.cancel();
    await this.connecting;
    await this.close();
  }

  /** The open team, or undefined (solo, the database away, or a chain that does not verify). */
  current(): OpenTeam | undefined {
    return this.phase === 'open' ? this.team : undefined;
  }

  /**
   * The open team for something that needs the shared journal; refused with a clear message while
   * the database is away or the chain does not verify (nothing is done then).
   */
  require(): OpenTeam {
    if (this.phase === 'open' && this.team !== undefined) {
      const health = this.team.db.health();
      if (health.state === 'unavailable') throw new TeamUnavailable(health.reason);
      const integrity = this.team.integrity();
      if (!integrity.ok) throw chainRefused(integrity.problem);
      return this.team;
    }
    if (this.phase === 'refused') throw chainRefused(this.problem ?? 'it could not be verified');
    if (this.phase === 'connecting') throw new TeamUnavailable(this.problem ?? 'not reached yet');
    throw DeskFailure.precondition('This desk is not in a team.');
  }

  /** The verified control state (the last one verified while the database is away). */
  state(): ControlState | undefined {
    return this.team?.state() ?? this.lastState;
  }

  /** An operator's team role as last verified; undefined when they are not enrolled (or were removed). */
  roleOf(operatorId: string): OperatorRole | undefined {
    return this.state()?.operator(operatorId)?.role;
  }

  /** The team signing key of the operator signed in here, when it is on this desk and unlocked. */
  signer(operatorId: string): OperatorSigner | undefined {
    return this.key?.operatorId === operatorId ? this.key : undefined;
  }

  /** The signer, or a refusal that says what to do. */
  requireSigner(who: OperatorInfo): OperatorSigner {
    const key = this.signer(who.id);
    if (key !== undefined) return key;
    throw DeskFailure.precondition(
      this.roleOf(who.id) === undefined
        ? `${who.name} is not enrolled in the team yet: nothing can be signed.`
        : `${who.name}'s team signing key is not unlocked on this desk.`,
      this.roleOf(who.id) === undefined
        ? 'Request the enrolment in Settings → Team; a team administrator enrols you.'
        : 'Sign out and in again with your passphrase (your key is on the desk where you enrolled).',
    );
  }

  /** Unlocks the operator's team key at sign-in (the same passphrase); no key on this desk is not an error. */
  async unlock(operatorId: string, passphrase: string): Promise<void> {
    this.key = undefined;
    const teamId = this.kept?.teamId;
    if (teamId === undefined) return;
    if ((await this.deps.keyStore.get(`team-operator:${teamId}:${operatorId}`)) === undefined) return;
    this.key = await unlockOperatorKey(this.deps.keyStore, teamId, operatorId, passphrase);
    this.emitStatus();
  }

  /** Uses a key just made (the operator typed their passphrase to make it). */
  adoptKey(signer: OperatorSigner): void {
    this.key = signer;
  }

  /** Forgets the unlocked key (locking, signing out). */
  forget(): void {
    this.key = undefined;
  }

  /** The active profile's team id, when it is connected (its account's user id known). */
  teamProfile(): string | undefined {
    return teamProfileId(this.deps.activeProfile());
  }

  /** The team's policy of a profile (undefined: none set in the team yet). */
  policyOf(
    teamProfile: string,
  ): { readonly policy: Policy; readonly version: number; readonly hash: string } | undefined {
    const version = this.state()?.policy(teamProfile);
    const policy = version === undefined ? undefined : this.parsePolicy(version.policy);
    return version && policy ? { policy, version: version.version, hash: version.hash } : undefined;
  }

  /** A policy as signed in the control chain, read with the policy's schema (undefined: not one). */
  parsePolicy(signed: unknown): Policy | undefined {
    const parsed = Policy.safeParse(signed);
    return parsed.success ? parsed.data : undefined;
  }

  /** The active profile's policy as the screens show it in team mode (the default until one is set). */
  activePolicy(): Policy {
    const profile = this.teamProfile();
    return (profile && this.policyOf(profile)?.policy) || DEFAULT_POLICY;
  }

  /**
   * The team journal's movement of a request key as it stands now, read from the database: `final`
   * (done, or nothing left and nothing will), `open` (the team may still send it), `absent` (never in
   * the team journal), or `unknown` when the team cannot be asked (not open, the database away, the
   * read failed) — then it may be open, and a caller must not take it for absent. What another desk
   * sent reaches this desk here even if it settled while this desk was away (no notification needed).
   */
  async movementNow(requestKey: string): Promise<TeamMovementNow> {
    const team = this.current();
    // Away: not asked (each look-up would wait out the connect timeout); asked again once it is back.
    if (team === undefined || team.db.health().state !== 'connected') return { state: 'unknown' };
    try {
      const movement = await team.movements.byRequestKey(requestKey);
      if (movement === undefined) return { state: 'absent' };
      return isFinal(movement.state) ? { state: 'final', movement } : { state: 'open' };
    } catch (error) {
      if (!(error instanceof TeamUnavailable)) this.deps.logError?.('team.movementNow', error);
      return { state: 'unknown' };
    }
  }

  /** Hears every change of the team (after the verified state it concerns is current). */
  onChange(listener: (change: TeamChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Hears the team database answer again after it was away (the team was open already). */
  onDatabaseBack(listener: () => void): () => void {
    this.backListeners.add(listener);
    return () => this.backListeners.delete(listener);
  }

  /** Hears the team open (at start, and again after it was away at start). */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** Takes this desk into a team (its settings kept) and opens it. */
  async adopt(settings: TeamSettings, signer?: OperatorSigner): Promise<void> {
    await this.close();
    this.kept = settings;
    this.deps.settings.set(TEAM_SETTINGS_KEY, settings);
    if (signer) this.key = signer;
    this.phase = 'connecting';
    this.problem = undefined;
    await this.connect();
  }

  /** Takes this desk out of its team: it works alone again (its keys stay in the keychain). */
  async leave(): Promise<void> {
    await this.close();
    this.kept = undefined;
    this.key = undefined;
    this.lastState = undefined;
    this.deps.settings.set(TEAM_SETTINGS_KEY, undefined);
    this.phase = 'solo';
    this.blocked = [];
    this.enrolments = [];
    this.emitStatus();
  }

  /** What the frame and Settings → Team show (`me`: the operator signed in here). */
  status(me?: OperatorInfo): TeamStatus {
    const offered = this.deps.offeredUrl;
    if (this.kept === undefined)
      return { mode: 'solo', ...(offered ? { offeredUrl: offered } : {}), blocked: [], operators: [], enrolments: [] };
    const state = this.state();
    const health = this.team?.db.health();
    const database: TeamStatus['database'] =
      this.phase === 'open' && health !== undefined
        ? health.state === 'connected'
          ? { state: 'connected' }
          : { state: 'unavailable', since: health.since, reason: health.reason }
        : this.phase === 'refused'
          ? { state: 'connected' }
          : {
              state: this.since === undefined ? 'connecting' : 'unavailable',
              ...(this.since ? { since: this.since } : {}),
              ...(this.problem ? { reason: this.problem } : {}),
            };
    const integrity =
      this.phase === 'refused'
        ? { ok: false, problem: this.problem }
        : this.team
          ? integrityView(this.team.integrity())
          : { ok: true };
    const mine = me ? state?.operator(me.id) : undefined;
    const requested = me ? this.enrolments.some((e) => e.request.operator.id === me.id) : false;
    return {
      mode: 'team',
      url: this.kept.url,
      fingerprint: this.kept.fingerprint,
      deskId: this.kept.deskId,
      ...(state ? { name: state.name, fourEyes: state.fourEyes } : {}),
      database,
      integrity,
      blocked: this.blocked,
      ...(me
        ? {
            me: {
              enrolled: mine?.role !== undefined,
              ...(mine?.role ? { role: mine.role } : {}),
              keyUnlocked: this.key?.operatorId === me.id,
              ...(mine
                ? { keyFingerprint: keyFingerprint(mine.publicKey) }
                : this.key?.operatorId === me.id
                  ? { keyFingerprint: keyFingerprint(this.key.publicKey) }
                  : {}),
              requested: requested && mine?.role === undefined,
            },
          }
        : {}),
      operators: (state?.operators() ?? []).map((o) => ({
        id: o.id,
        name: o.name,
        ...(o.role ? { role: o.role } : {}),
        keyFingerprint: keyFingerprint(o.publicKey),
      })),
      enrolments: this.enrolments
        .filter((e) => state?.operator(e.request.operator.id) === undefined)
        .map((e) => ({
          operatorId: e.request.operator.id,
          name: e.request.operator.name,
          role: e.request.operator.role,
          keyFingerprint: keyFingerprint(e.request.operator.publicKey),
          prepared: e.changeId !== null,
          requestedAt: e.requestedAt,
        })),
    };
  }

  /** Tells every window what changed (the frame's banner, Settings → Team). */
  emitStatus(): void {
    try {
      this.deps.emit('team.statusChanged', this.status());
    } catch (error) {
      this.deps.logError?.('team.statusChanged', error);
    }
  }

  /** After this desk applied a control change: the verified state (roles, policies) is current at once. */
  async applied(): Promise<void> {
    const team = this.current();
    if (team === undefined) return;
    await team.verifyNow();
    this.lastState = team.state();
    this.keep(team.settings());
    await this.refresh();
  }

  /** Reads again what the status shows from the database (blocked movements, enrolment requests). */
  async refresh(): Promise<void> {
    const team = this.current();
    if (team === undefined) return;
    try {
      this.blocked = (await team.movements.blocked()).map((b) => ({ movementId: b.id, problem: b.message, at: b.at }));
      this.enrolments = await team.enrolments.list();
    } catch (error) {
      if (!(error instanceof TeamUnavailable)) this.deps.logError?.('team.refresh', error);
    }
    this.emitStatus();
  }

  private connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.retry?.cancel();
    this.retry = undefined;
    this.connecting = this.tryOpen().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async tryOpen(): Promise<void> {
    const kept = this.kept;
    if (kept === undefined || this.stopped) return;
    let team: OpenTeam;
    try {
      team = await openTeam(kept, this.deps.keyStore, {
        timers: timersOf(this.deps.scheduler),
        ...(this.deps.timeouts ? { timeouts: this.deps.timeouts } : {}),
        onChange: (change) => this.heard(change),
        onIntegrity: () => this.emitStatus(),
      });
    } catch (error) {
      if (error instanceof TeamUnavailable) {
        this.phase = 'connecting';
        this.since ??= this.deps.scheduler.wallNow();
        this.problem = error.reason;
      } else {
        this.phase = 'refused';
        this.problem = error instanceof Error ? error.message : String(error);
      }
      this.emitStatus();
      if (!this.stopped)
        this.retry = this.deps.scheduler.setTimeout(
          () => void this.connect(),
          this.phase === 'refused' ? REFUSED_RETRY_MS : RETRY_MS,
          BACKGROUND,
        );
      return;
    }
    if (this.stopped || this.kept !== kept) {
      await team.close();
      return;
    }
    if (!this.ownLeasesExpired) {
      // This run claims nothing before this point, so every lease this desk holds is its previous
      // run's (killed or crashed): claimed again now, not after the lease's full time.
      this.ownLeasesExpired = true;
      // If this fails (the database went away meanwhile), those leases run out by themselves.
      await team.movements.expireOwnLeases().catch(() => undefined);
    }
    this.team = team;
    this.phase = 'open';
    this.problem = undefined;
    this.since = undefined;
    this.lastState = team.state();
    this.keep(team.settings());
    team.db.onHealth((health) => {
      this.emitStatus();
      if (health.state === 'connected') for (const listener of this.backListeners) listener();
    });
    await this.refresh();
    for (const listener of this.openListeners) listener();
  }

  private heard(change: TeamChange): void {
    const team = this.team;
    if (team === undefined) return;
    if (change.kind === 'control.changed') {
      this.lastState = team.state();
      this.keep(team.settings());
      void this.refresh();
    } else if (change.kind === 'movement.changed') {
      // A movement blocked on any desk is every desk's alert.
      void team.movements.get(change.subject).then(
        (m) => (m?.state === 'blocked' ? this.refresh() : undefined),
        () => undefined,
      );
    }
    for (const listener of this.changeListeners) {
      try {
        listener(change);
      } catch (error) {
        this.deps.logError?.('team.change', error);
      }
    }
  }

  /** Keeps the newest verified anchor (a chain cut back behind it is caught at the next start). */
  private keep(settings: TeamSettings): void {
    if (this.kept === undefined) return;
    this.kept = { ...settings, teamId: this.kept.teamId };
    this.deps.settings.set(TEAM_SETTINGS_KEY, this.kept);
  }

  private async close(): Promise<void> {
    const team = this.team;
    this.team = undefined;
    await team?.close().catch((error) => this.deps.logError?.('team.close', error));
  }
}

const integrityView = (integrity: TeamIntegrity): TeamStatus['integrity'] =>
  integrity.ok ? { ok: true } : { ok: false, problem: integrity.problem };

/** The refusal while the team's control chain does not verify: nothing is sent or signed. */
const chainRefused = (problem: string): DeskFailure =>
  new DeskFailure({
    code: 'PRECONDITION',
    delivery: 'not_sent',
    message: `The team's records do not verify (${problem}): nothing is sent or changed from this desk.`,
    advice: 'An administrator checks the team database (docs/team.md, "Recovery").',
  });
