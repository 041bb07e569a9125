/**
 * The Electron-free heart of main: opens the journal, the keychain and the active profile's
 * connection, builds the service context and every area's handlers, and the dispatcher that guards
 * them. The Electron glue (electron/main) and the Chromium fallback shell (shell) both
 * start exactly this and only differ in transport.
 */
import { contract, type DeskHandlers } from '../shared/contract';
import type { OperatorRole } from '../shared/contract/operators';
import type { ControlKind } from '../shared/contract/policies';
import { openAuditTrust } from './activity/auditTrust';
import { createActivityHandlers } from './activity/handlers';
import type { RequestRecord } from './api/client';
import type { OpenExternal } from './app/externalUrl';
import { type AppDeps, type ChooseSavePath, createAppHandlers } from './app/handlers';
import { ApprovalQueue } from './approvals/queue';
import { balanceControlKinds, createBalancesHandlers } from './balances/handlers';
import { type Batches, createBatches } from './batches/batches';
import { createBulkHandlers, saveExportFile } from './batches/handlers';
import { BatchStore } from './batches/store';
import { createMovementCommands, type MovementCommands } from './commands/movements';
import type { Emit, ServiceContext } from './context';
import { createFundingHandlers, createSavedAddresses, createWithdrawalPrecheck } from './funding/handlers';
import { HistorySync } from './history/sync';
import type { CoreInternals } from './internals';
import { AppLock } from './ipc/appLock';
import { createDispatcher, type Dispatch } from './ipc/dispatcher';
import { lockDataDir } from './journal/dataDirLock';
import { type Db, openJournalDb } from './journal/db';
import { createSettings, createSnapshots } from './journal/store';
import { journalWriteProblem } from './journal/writeFailure';
import type { KeyStore } from './keychain/keyStore';
import { OsKeyStore } from './keychain/osKeyStore';
import { createKeysHandlers, keyControlKinds } from './keys/handlers';
import { MovementEngine } from './movements/engine';
import { FundingNotifier, isFundingEvent, type OsNotificationCapability } from './notifications/notifier';
import { accessOf, can, type OperatorSource, Operators, type ScryptCost, stampIntentsWithOperator } from './operators';
import { type ControlKindHandler, type ControlPlane, createControlPlane } from './operators/controls';
import { createOperatorsHandlers, createSession, operatorControlKinds, type Session } from './operators/handlers';
import { type Authorizer, createAuthorizer } from './policies/authorize';
import type { Confirm } from './policies/confirm';
import type { ShowSecret } from './policies/confirmPage';
import {
  createApprovalsHandlers,
  createPoliciesHandlers,
  createPolicyChanges,
  policyChanges,
  policyControlKinds,
} from './policies/handlers';
import { createLimits } from './policies/limits';
import { PolicyStore } from './policies/store';
import { createProfilesHandlers, profileControlKinds } from './profiles/handlers';
import { ProfileManager, type SandboxSource } from './profiles/manager';
import { BACKGROUND, type Scheduler, type Service, systemScheduler } from './scheduler';
import { createSubAccountsHandlers, subAccountControlKinds } from './subAccounts/handlers';
import { createKeyRotation, type KeyRotationHandlers } from './subAccounts/keyRotation';
import type { TeamTimeouts } from './team/connection';
import { createTeamApprovals, type TeamApprovals } from './teamDesk/approvals';
import { createTeamControl } from './teamDesk/control';
import { TeamDesk } from './teamDesk/desk';
import { createTeamHandlers, type TeamHandlersDeps } from './teamDesk/handlers';
import { createTeamJoining } from './teamDesk/joining';
import { offeredTeamUrl } from './teamDesk/offered';
import { teamAwareOperators } from './teamDesk/operators';
import { createTeamRoute } from './teamDesk/route';
import { TeamSender } from './teamDesk/sender';
import { createTradeHandlers } from './trade/handlers';
import { createTransferRoute, createTransfersHandlers, subNames } from './transfers/handlers';
import { Watchers } from './watchers/watchers';

export interface CoreOptions {
  readonly dataDir: string;
  readonly shell: 'electron' | 'chromium';
  /** Origins the renderer is served from; every IPC sender is checked against them. */
  readonly trustedOrigins: readonly string[];
  readonly emit: Emit;
  readonly logError?: (operation: string, error: unknown) => void;
  /** One line per platform request (method, path, status, label, request id, ms; never secrets). */
  readonly log?: (line: string) => void;
  /** Default: the OS keychain. Tests pass MemoryKeyStore. */
  readonly keyStore?: KeyStore;
  /** Default: the embedded sandbox in dataDir/sandbox. e2e tests point at their own sandbox. */
  readonly sandbox?: SandboxSource;
  /** Connect the last used profile at start (default true). */
  readonly connect?: boolean;
  /** Request timeout, ms (default 15 000). */
  readonly timeoutMs?: number;
  /** Tests only: shortens every rate-limit window (the sandbox must not enforce then). */
  readonly limiterScale?: number;
  /** Use the platform's WebSocket stream where there is one (default true; `false`: REST polling only). */
  readonly streams?: boolean;
  /** Tests only: timings of the movement engine (see MovementEngineOptions). */
  readonly movements?: { readonly settleMs?: number; readonly backgroundMs?: number; readonly maxAttempts?: number };
  /**
   * Time: every timer, wait and elapsed time of the core (scheduler.ts). Default: the system's
   * clocks; tests pass a manual one (testing/scheduler.ts) and wait for `core.idle()`.
   */
  readonly scheduler?: Scheduler;
  /**
   * The longest interval between two reads of each funding list by the watchers, ms (default: each
   * list's own cadence, 30 s to 2 min when nothing in it can change, 3 s while something can; see
   * watchers.ts). 0 disables them and the 15-minute balance snapshots.
   */
  readonly watchIntervalMs?: number;
  /** Electron: the native save dialog. Absent (the Chromium shell): exports go into `downloadsDir`. */
  readonly chooseSavePath?: ChooseSavePath;
  /** Where exports are written without a dialog (default ~/Downloads; e2e tests use a temp dir). */
  readonly downloadsDir?: string;
  /** Opens an explorer link in the system browser (the shell's). Absent: `app.openExternal` answers not opened. */
  readonly openExternal?: OpenExternal;
  /** How this shell shows OS notifications of deposit/withdrawal/push changes. Absent: none. */
  readonly osNotifications?: OsNotificationCapability;
  /**
   * The shell's trusted confirmation (a window the renderer cannot script). Absent: every
   * withdrawal, push, transfer above the threshold, key or policy change is refused
   * (CONFIRMATION_DECLINED). In-process tests pass an automatic answer.
   */
  readonly confirm?: Confirm;
  /**
   * The shell's page for a new secret (a new API key's): shown there once, never returned to the
   * window. Absent: a new key's secret can only go to the keychain (keys.create says so).
   */
  readonly showSecret?: ShowSecret;
  /** Who is at the desk (the operators module). Default: one implicit admin operator. */
  readonly operators?: OperatorSource;
  /**
   * Automation only (e2e tests, benchmarks; never set by `npm start` or Electron): creates this
   * administrator when the data folder has no operator yet, and signs them in at every start.
   */
  readonly bootstrapOperator?: { readonly name: string; readonly passphrase: string };
  /** Tests only: a cheaper scrypt for operators' passphrases. */
  readonly scryptCost?: ScryptCost;
  /** How often pending approvals are checked for expiry, ms (default 30 000). */
  readonly approvalsExpiryMs?: number;
  /**
   * Team mode (docs/team.md). `url`: a team database this desk is offered to join (Settings → Team;
   * `npm start -- --team <url>` and TREASURY_DESK_TEAM_URL set it; a password in it goes to the
   * keychain). A desk already in a team opens its own team whatever this says.
   */
  readonly team?: {
    readonly url?: string;
    /**
     * Automation only (tests, benchmarks; with `bootstrapOperator`): a desk not in a team yet
     * creates the team at `url` (no fingerprint) or joins it (asking to enrol its operator) at start.
     */
    readonly automate?: { readonly fingerprint?: string; readonly teamName?: string; readonly role?: OperatorRole };
    /** A movement's lease, ms (default 30 000; benchmarks shorten it to take over sooner). */
    readonly leaseMs?: number;
    readonly timeouts?: TeamTimeouts;
  };
}

export interface Core {
  readonly dispatch: Dispatch;
  readonly handlers: DeskHandlers;
  readonly ctx: ServiceContext;
  /** Internals for the shells and tests. */
  readonly profiles: ProfileManager;
  readonly movementService: MovementEngine;
  readonly history: HistorySync;
  readonly db: Db;
  /** The app lock (app.lock / app.unlock); the dispatcher refuses everything else while it is closed. */
  readonly lock: AppLock;
  /** This desk in a team (solo: not configured). */
  readonly team: TeamDesk;
  readonly scheduler: Scheduler;
  /**
   * Resolves when nothing is due and nothing is in flight: no movement being sent or checked, no
   * watcher read, no request, no batch row waiting for its answer (one waiting out its retry pause
   * waits for time, like every timer not yet due). Tests wait for it instead of sleeping.
   */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** What the handlers are built from (core.ts builds each once, bottom up). */
interface Domain {
  readonly internals: CoreInternals;
  readonly session: Session;
  readonly policies: PolicyStore;
  readonly queue: ApprovalQueue;
  readonly authorizer: Authorizer;
  readonly commands: MovementCommands;
  readonly batches: Batches;
  readonly keyRotation: KeyRotationHandlers;
  readonly controls: ControlPlane;
  readonly app: AppDeps;
  readonly team: TeamHandlersDeps;
  readonly teamApprovals: TeamApprovals;
}

const createHandlers = (ctx: ServiceContext, d: Domain): DeskHandlers => {
  const policyChanges = createPolicyChanges({ policies: d.policies, authorizer: d.authorizer, controls: d.controls });
  return {
    app: createAppHandlers(ctx, d.app),
    operators: createOperatorsHandlers(ctx, d.session, d.controls, d.authorizer.confirmChange),
    profiles: createProfilesHandlers(ctx, d.internals, d.controls),
    balances: createBalancesHandlers(ctx, d.controls),
    funding: createFundingHandlers(ctx, d.commands, {
      get: () => d.policies.get(d.authorizer.profile().id).review ?? { typedConfirmAbove: {} },
      set: (review) => policyChanges.setReview(review),
    }),
    transfers: createTransfersHandlers(ctx, d.commands),
    subAccounts: createSubAccountsHandlers(ctx, d.controls),
    keys: createKeysHandlers(ctx, d.controls, d.internals.showSecret),
    trade: createTradeHandlers(ctx),
    activity: createActivityHandlers(ctx, d.internals),
    bulk: createBulkHandlers(ctx, { batches: d.batches, keyRotation: d.keyRotation, app: d.app, controls: d.controls }),
    policies: createPoliciesHandlers({ policies: d.policies, authorizer: d.authorizer, changes: policyChanges }),
    approvals: createApprovalsHandlers({ ...d, team: d.teamApprovals }),
    team: createTeamHandlers(ctx, d.team),
  };
};

export type { CoreInternals } from './internals';

const accessWords = (access: string): string =>
  access === 'make'
    ? 'a maker, approver or administrator'
    : access === 'approve'
      ? 'an approver or administrator'
      : 'an administrator';

const accountOf = (record: RequestRecord): string => {
  const sub = /^\/sub_accounts\/(\d+)/.exec(record.path)?.[1];
  if (sub) return sub;
  if (record.body) {
    try {
      const body = JSON.parse(record.body) as Record<string, unknown>;
      for (const field of ['sub_account', 'sub_account_from', 'receive_uid']) {
        if (body[field] !== undefined) return String(body[field]);
      }
    } catch {
      // not an object
    }
  }
  return '';
};

/**
 * Takes the data directory's lock (DataDirBusy when another core holds it: nothing is opened or
 * changed then), then builds the core; the lock is kept until close().
 */
export const createCore = async (options: CoreOptions): Promise<Core> => {
  const dataLock = lockDataDir(options.dataDir, options.shell);
  try {
    return await buildCore(options, dataLock.release);
  } catch (error) {
    dataLock.release();
    throw error;
  }
};

const buildCore = async (options: CoreOptions, releaseLock: () => void): Promise<Core> => {
  const scheduler = options.scheduler ?? systemScheduler();
  const db = openJournalDb(options.dataDir);
  const keyStore = options.keyStore ?? new OsKeyStore();
  let profiles: ProfileManager | undefined;
  const activeId = () => profiles?.active()?.id ?? '';
  const settings = createSettings(db);
  // This desk in a team (docs/team.md): nothing of it runs without team settings (solo, the default).
  const teamDesk = new TeamDesk({
    keyStore,
    settings,
    scheduler,
    emit: options.emit,
    activeProfile: () => profiles?.active(),
    offeredUrl: await offeredTeamUrl(options.team?.url, keyStore, options.logError),
    ...(options.team?.timeouts ? { timeouts: options.team.timeouts } : {}),
    ...(options.logError ? { logError: options.logError } : {}),
  });
  let teamSender: TeamSender | undefined;
  // Who is at the desk: their name goes on every audit entry and every journal intent; in a team
  // their role is the team's. The operators are made just below, once the keychain has given the
  // key their unknown names are hashed with (the audit trust's check at start records as the app
  // itself, asking nobody's name).
  const operatorSource: OperatorSource = teamAwareOperators(
    teamDesk,
    options.operators ?? { current: () => operators.current() },
  );
  // The audit log's chain key, head and signing key live in the keychain; checked here, at start,
  // before anything else is recorded (activity/auditTrust.ts).
  const auditTrust = await openAuditTrust({
    db,
    keyStore,
    dataDir: options.dataDir,
    activeProfileId: activeId,
    operatorName: () => operatorSource.current()?.name ?? '',
    ...(options.log ? { log: options.log } : {}),
  });
  auditTrust.onChange((state) => options.emit('activity.auditIntegrityChanged', state));
  const { audit } = auditTrust;
  const operators = new Operators({
    db,
    nameHash: auditTrust.nameHash,
    ...(options.scryptCost ? { scryptCost: options.scryptCost } : {}),
  });
  stampIntentsWithOperator(db, operatorSource);
  const snapshots = createSnapshots(db, activeId);
  const profileListeners = new Set<Parameters<ServiceContext['onProfileChange']>[0]>();

  const movementService = new MovementEngine({
    db,
    scheduler,
    profileId: () => profiles?.active()?.id,
    platform: () => (profiles as ProfileManager).platform(),
    onChange: (movement) => {
      options.emit('activity.movementChanged', movement);
      teamSender?.localChanged(movement);
      // The watchers follow the app's own withdrawals and pushes closely from the first change on
      // (`watchers` is built below, before anything can change a movement: no await in between).
      if (movement.kind === 'withdrawal' || movement.kind === 'push') watchers.follow(movement.kind);
      // A batch row waiting for this movement's outcome shows it now (`batches`, like `watchers`, is
      // built below before anything can change a movement).
      if (movement.state === 'done' || movement.state === 'failed') batches.runner.followNow();
    },
    ...(options.movements ?? {}),
    ...(options.timeoutMs && options.movements?.settleMs === undefined ? { settleMs: options.timeoutMs + 5_000 } : {}),
    ...(options.log ? { log: options.log } : {}),
  });

  profiles = new ProfileManager({
    db,
    dataDir: options.dataDir,
    keyStore,
    scheduler,
    sandbox: options.sandbox ?? { mode: 'embedded' },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.limiterScale ? { limiterScale: options.limiterScale } : {}),
    ...(options.streams === false ? { streams: false } : {}),
    onStatus: (status) => {
      options.emit('profiles.connectionChanged', status);
      teamSender?.poke();
    },
    onLimiter: (limiter) => options.emit('profiles.limiterChanged', limiter),
    onRequest: (profileId, record) => {
      options.log?.(
        `${record.method} ${record.path}${record.query ? `?${record.query}` : ''} → ${record.status || 'no answer'}${record.label ? ` ${record.label}` : ''} [${record.requestId}] ${record.durationMs} ms${record.purpose ? ` · ${record.purpose}` : ''}`,
      );
      if (record.method === 'GET') return;
      const ok = record.status >= 200 && record.status < 300;
      try {
        audit.record({
          profileId,
          action: `${record.method} ${record.path}${record.purpose ? ` (${record.purpose})` : ''}`,
          account: accountOf(record),
          params: {
            ...(record.query ? { query: record.query } : {}),
            ...(record.body ? { body: JSON.parse(record.body) } : {}),
          },
          outcome: ok ? 'ok' : record.status === 0 || record.status >= 500 ? 'unknown' : 'error',
          ...(record.label ? { label: record.label } : {}),
          requestId: record.requestId,
        });
      } catch (error) {
        // A full disk must not turn the platform's answer into an error (the movement's own
        // journal write reports the problem); the request log line above still has it.
        const problem = journalWriteProblem(error);
        if (problem === undefined) throw error;
        options.logError?.('audit', new Error(`audit entry not written (${problem}): ${record.requestId}`));
      }
    },
    onSwitch: (profile) => {
      for (const listener of profileListeners) {
        try {
          listener(profile);
        } catch (error) {
          options.logError?.('onProfileChange', error);
        }
      }
    },
    unresolvedMovements: () => movementService.openCount(),
    ...(options.log ? { log: options.log } : {}),
  });
  const manager = profiles;

  const ctx: ServiceContext = {
    emit: options.emit,
    dataDir: options.dataDir,
    shell: options.shell,
    platform: () => manager.platform(),
    stream: () => manager.stream(),
    activeProfile: () => manager.active(),
    onProfileChange: (listener) => {
      profileListeners.add(listener);
      return () => profileListeners.delete(listener);
    },
    movements: movementService,
    audit,
    snapshots,
    settings,
    keyStore,
    scheduler,
  };

  const history = new HistorySync({
    db,
    platform: () => manager.platform(),
    profileId: () => manager.active()?.id,
    onProgress: (progress) => options.emit('activity.historyProgress', progress),
  });
  const notifier = new FundingNotifier({
    settings,
    ...(options.osNotifications ? { capability: options.osNotifications } : {}),
    profileName: (id) => (manager.active()?.id === id ? manager.active()?.name : undefined),
    ...(options.logError ? { logError: options.logError } : {}),
  });
  const watchers = new Watchers({
    scheduler,
    platform: () => manager.platform(),
    profile: () => manager.active(),
    movements: movementService,
    // Every status change goes to the renderer and, when worth it, to an OS notification.
    emit: (name, payload) => {
      options.emit(name, payload);
      if (isFundingEvent(name)) notifier.observe(name, payload as Parameters<FundingNotifier['observe']>[1]);
    },
    ...(options.watchIntervalMs !== undefined ? { intervalMs: options.watchIntervalMs } : {}),
    snapshots,
    snapshotIntervalMs: options.watchIntervalMs === 0 ? 0 : 15 * 60_000,
  });

  ctx.onProfileChange(() => {
    history.cancelRunning();
    watchers.restart();
    void movementService.reconcile().catch(() => {});
  });

  // The domain, bottom up (docs/architecture.md, "Domain commands"): policies and the Approvals
  // queue, the authorization pipeline, the movement commands, batches (rows through the commands),
  // the control plane; then the handlers over them. Nothing is bound later.
  const policies = new PolicyStore(settings, {
    active: () => teamDesk.configured(),
    policy: () => teamDesk.activePolicy(),
  });
  const queue = new ApprovalQueue({
    db,
    audit,
    // A new item waiting also becomes an OS notification (the approver may be elsewhere).
    emit: (name, payload) => {
      options.emit(name, payload);
      if (name === 'approvals.changed' && (payload as { state?: string }).state === 'pending')
        notifier.approvalWaiting();
    },
    operators: operatorSource,
    grantOf: (id) => operators.grantOf(id),
    coolingOffHours: (profileId) => policies.operatorCoolingOffHours(profileId || activeId()),
  });
  const limits = createLimits({ platform: () => manager.platform(), movements: movementService, audit, policies });
  const authorizer = createAuthorizer({
    confirm: options.confirm,
    operators: operatorSource,
    limits,
    policies,
    queue,
    movements: movementService,
    activeProfile: () => manager.active(),
  });
  // Team mode's sender: claims the team's movements this desk can send, sends them once (teamDesk/).
  let lockRef: AppLock | undefined;
  const sender = new TeamSender({
    desk: teamDesk,
    movements: movementService,
    scheduler,
    audit,
    canSend: () => lockRef !== undefined && !lockRef.closed && manager.status().state === 'connected',
    ...(options.team?.leaseMs ? { leaseMs: options.team.leaseMs } : {}),
    ...(options.logError ? { logError: options.logError } : {}),
  });
  teamSender = sender;
  const commands = createMovementCommands({
    movements: movementService,
    authorizer,
    queue,
    policies,
    audit,
    precheckWithdrawal: createWithdrawalPrecheck(ctx),
    transferRoute: createTransferRoute(ctx),
    team: createTeamRoute({
      desk: teamDesk,
      operators: operatorSource,
      authorizer,
      limits,
      sender,
      movements: movementService,
      audit,
      scheduler,
      ...(options.team?.leaseMs ? { leaseMs: options.team.leaseMs } : {}),
    }),
  });
  const batches = createBatches({
    store: new BatchStore(db),
    audit,
    emit: options.emit,
    platform: () => manager.platform(),
    activeProfile: () => manager.active(),
    onProfileChange: ctx.onProfileChange,
    movements: movementService,
    team: { active: () => teamDesk.configured(), movementNow: (requestKey) => teamDesk.movementNow(requestKey) },
    commands,
    authorizer,
    queue,
    limits,
    policies,
    confirm: options.confirm,
    savedAddresses: createSavedAddresses(ctx),
    subNames: () => subNames(ctx),
    scheduler,
    ...(options.log ? { log: options.log } : {}),
  });
  // Rows that found the team database away go on the moment it answers again, not a retry pause later.
  teamDesk.onDatabaseBack(() => batches.runner.wake());
  const app: AppDeps = {
    ...(options.chooseSavePath ? { chooseSavePath: options.chooseSavePath } : {}),
    ...(options.downloadsDir ? { downloadsDir: options.downloadsDir } : {}),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
  };
  const teamControl = createTeamControl({ desk: teamDesk, operators, scheduler, policyRows: policyChanges });
  const joining = createTeamJoining({
    desk: teamDesk,
    keyStore,
    operators,
    scheduler,
    localPolicy: () => {
      const active = manager.active();
      return active ? { profileName: active.name, policy: policies.get(active.id) } : undefined;
    },
    soloJournal: {
      checkAudit: () => auditTrust.check(),
      audit,
      movements: movementService,
      profileIds: () => manager.list().map((p) => p.id),
      operators: () => operators.list(),
    },
    ...(options.scryptCost ? { scryptCost: options.scryptCost } : {}),
    ...(options.team?.timeouts ? { timeouts: options.team.timeouts } : {}),
  });
  const controls = createControlPlane({
    queue,
    confirm: options.confirm,
    operators: operatorSource,
    administrators: () => operators.adminCount(),
    audit,
    activeProfile: () => manager.active(),
    expiresHours: () => policies.get(activeId()).approval.expiresHours,
    coolingOffHours: () => policies.operatorCoolingOffHours(activeId()),
    kinds: {
      ...operatorControlKinds(operators),
      ...policyControlKinds(policies),
      ...profileControlKinds(manager, keyStore),
      ...subAccountControlKinds(ctx),
      ...keyControlKinds(ctx, options.showSecret),
      ...balanceControlKinds(ctx),
      ...joining.kinds,
    } satisfies Record<ControlKind, ControlKindHandler>,
    team: teamControl.route,
    ...(options.logError ? { logError: options.logError } : {}),
  });
  const rotation = createKeyRotation({
    platform: () => manager.platform(),
    activeProfile: () => manager.active(),
    audit,
    confirmChange: authorizer.confirmChange,
    saveFile: saveExportFile(app),
    showSecret: options.showSecret,
    fourEyesInForce: () => controls.fourEyes().inForce,
  });
  const teamApprovals = createTeamApprovals({
    desk: teamDesk,
    operators: operatorSource,
    authorizer,
    movements: movementService,
    audit,
    emit: options.emit,
    scheduler,
    describe: teamControl.describe,
    onApproved: () => sender.poke(),
    ...(options.osNotifications
      ? {
          notify: (title: string, body: string) => options.osNotifications?.showOsNotification({ title, body }),
        }
      : {}),
  });

  // Locking lets every call in flight finish (the dispatcher counts them), then the journal's
  // background checks, and only then forgets the key; watchers pause by themselves without one.
  const lock = new AppLock({
    settle: async () => {
      history.cancelRunning();
      // No new batch row starts; the rows in flight get their answer first.
      await batches.runner.suspend();
      await movementService.idle();
    },
    secure: () => manager.lock(),
    restore: async () => {
      await manager.unlock();
      batches.runner.unsuspend();
      sender.poke();
    },
  });
  lockRef = lock;
  // Approved items left without their send by a core that stopped are never sent late.
  commands.recover();
  controls.recover();
  const expiryTimer = scheduler.setInterval(
    () => {
      try {
        queue.expire();
      } catch (error) {
        options.logError?.('approvals.expire', error);
      }
    },
    options.approvalsExpiryMs ?? 30_000,
    BACKGROUND,
  );
  const session = createSession(ctx, operators, lock, {
    // In a team the operator's signing key opens with the same passphrase (if it is on this desk).
    signedIn: (operator, passphrase) =>
      teamDesk.unlock(operator.id, passphrase).catch((error) => options.logError?.('team.unlock', error)),
    locked: () => teamDesk.forget(),
    role: (operator) => (teamDesk.configured() ? (teamDesk.roleOf(operator.id) ?? 'viewer') : operator.role),
  });
  const internals: CoreInternals = {
    profiles: manager,
    movementService,
    history,
    keyStore,
    auditTrust,
    confirmChange: authorizer.confirmChange,
    ...(options.showSecret ? { showSecret: options.showSecret } : {}),
    app: { lock, session, notifier, ...app },
  };
  const handlers = createHandlers(ctx, {
    internals,
    session,
    policies,
    queue,
    authorizer,
    commands,
    batches,
    keyRotation: rotation.handlers,
    controls,
    app: internals.app ?? {},
    team: { desk: teamDesk, joining, controls, operators: operatorSource },
    teamApprovals,
  });
  const dispatch = createDispatcher(contract, handlers, {
    trustedOrigins: options.trustedOrigins,
    lock,
    // Roles: every operation needs its access (operators/access.ts); nobody signed in is LOCKED.
    access: {
      isOpen: (operation) => accessOf(operation) === 'open',
      refuse: (operation) => {
        const who = operatorSource.current();
        if (who === undefined)
          return {
            code: 'LOCKED',
            message: 'Nobody is signed in; nothing was done.',
            advice: 'Sign in, then try again.',
          };
        const access = accessOf(operation);
        if (can(who.role, access)) return undefined;
        return {
          code: 'NOT_ALLOWED',
          message: `${who.name} is ${who.role === 'admin' ? 'an' : 'a'} ${who.role}: this needs ${accessWords(access)}. Nothing was done.`,
          advice: 'Ask an administrator to do it, or to give you that role.',
        };
      },
    },
    ...(options.logError ? { logError: options.logError } : {}),
  });

  // Areas with background work start once everything is composed (before the first connection,
  // whose switch they follow) and stop, in reverse order, on close.
  const services: readonly Service[] = [movementService, watchers, sender];
  for (const service of services) service.start();
  // The team (when this desk is in one) opens before the profile connects: its sender and routes use it.
  await teamDesk.start();
  // Nobody is at the desk yet: the app starts locked (signed out) and the keys leave memory as soon
  // as whatever started in the background has settled. Automation signs its operator in instead,
  // while the profile connects: the passphrase's hash runs on libuv's threads, the connection waits
  // on the network, and neither needs the other.
  const bootstrap = options.bootstrapOperator;
  await Promise.all([
    (options.connect ?? true) ? manager.start() : undefined,
    bootstrap
      ? operators.count() === 0
        ? operators.setup(bootstrap.name, bootstrap.passphrase)
        : operators.signIn(bootstrap.name, bootstrap.passphrase).catch(() => undefined)
      : undefined,
  ]);
  if (bootstrap) {
    const who = operators.current();
    if (who)
      await teamDesk.unlock(who.id, bootstrap.passphrase).catch((error) => options.logError?.('team.unlock', error));
    const automate = options.team?.automate;
    if (who && automate && options.team?.url && !teamDesk.configured()) {
      const input = { url: options.team.url, passphrase: bootstrap.passphrase };
      if (automate.fingerprint === undefined)
        await joining.create(controls, operatorSource.current()!, { ...input, name: automate.teamName ?? 'Test firm' });
      else
        await joining.join(controls, operatorSource.current()!, {
          ...input,
          fingerprint: automate.fingerprint,
          role: automate.role ?? 'admin',
        });
    }
  }
  if (operators.current() === undefined)
    void lock.lock('signedOut').catch((error) => options.logError?.('lock', error));
  // Batches left running by a core that stopped go on where they were (exactly once per row); while
  // nobody is signed in the lock holds them (suspended) until someone is.
  batches.resume();

  let closed = false;
  return {
    dispatch,
    handlers,
    ctx,
    profiles: manager,
    movementService,
    history,
    db,
    lock,
    team: teamDesk,
    scheduler,
    idle: () => scheduler.idle(),
    close: async () => {
      if (closed) return;
      closed = true;
      expiryTimer.cancel();
      history.cancelRunning();
      batches.close();
      rotation.close();
      for (const service of [...services].reverse()) await service.stop();
      await teamDesk.stop();
      await manager.close();
      await auditTrust.flush();
      db.close();
      releaseLock();
    },
  };
};
