/**
 * A desk's life in a team, as the core will call it: start a team on an empty database, join one,
 * open the team at every start. What the desk keeps on disk between starts is `TeamSettings` (the URL
 * without its password, the fingerprint it pinned, the anchors of the chains it verified); the
 * password and the operators' sealed keys stay in the keychain.
 *
 * An open team keeps the verified control state current: every `control.changed` it hears makes it
 * verify the chain again from its last anchor. A chain that no longer verifies turns `integrity`
 * into the problem (the frame shows it on every screen; nothing is sent while it lasts).
 */
import { randomUUID } from 'node:crypto';
import type { KeyStore } from '../keychain/keyStore';
import { DEFAULT_SCRYPT_COST, type ScryptCost } from '../operators/passphrase';
import { TeamAudit } from './audit';
import { type TeamChange, TeamLive } from './changes';
import { DEFAULT_TEAM_TIMEOUTS, parseTeamUrl, saveTeamPassword, type TeamTimeouts } from './connection';
import { type Genesis, TeamControl } from './control';
import type { ChainAnchor, ControlState } from './controlChain';
import { TeamDatabase, type TeamTimers } from './database';
import { TeamEnrolments } from './enrolment';
import { teamRefused } from './errors';
import { createOperatorKey, type OperatorSigner } from './identity';
import { TeamMovements } from './movements';
import { migrate } from './schema';
import { TeamSenders } from './senders';

/** What a desk keeps of its team between starts (its settings; no secret). */
export interface TeamSettings {
  /** The team URL without a password (connection.ts). */
  readonly url: string;
  /** The team's fingerprint, pinned when the desk joined. */
  readonly fingerprint: string;
  /** The team's id (its records name it; an operator's sealed key is kept under it). */
  readonly teamId: string;
  /** This desk's id in the team (lease holder, audit entries). */
  readonly deskId: string;
  /** The control chain's head as this desk last verified it. */
  readonly controlAnchor?: ChainAnchor;
}

export interface TeamOptions {
  readonly timers?: TeamTimers;
  readonly timeouts?: TeamTimeouts;
}

const open = async (url: string, keyStore: KeyStore, options: TeamOptions) =>
  TeamDatabase.open(parseTeamUrl(url).url, keyStore, {
    timeouts: options.timeouts ?? DEFAULT_TEAM_TIMEOUTS,
    ...(options.timers ? { timers: options.timers } : {}),
  });

/** Takes the password out of a URL typed by a person and keeps it in the keychain; returns the URL to keep. */
const keepPassword = async (input: string, keyStore: KeyStore): Promise<string> => {
  const { url, password } = parseTeamUrl(input);
  if (password !== undefined) await saveTeamPassword(keyStore, url, password);
  return url.text;
};

/** A team prepared on the first desk: the genesis signed, nothing written yet (`applyStart` writes it). */
export interface PreparedStart {
  readonly settings: TeamSettings;
  readonly genesis: Genesis;
  /** The first administrator, unlocked (they just typed their passphrase). */
  readonly admin: OperatorSigner;
}

/**
 * The first desk, step one: keeps the URL's password in the keychain, migrates the database, checks
 * that it holds no team, makes the administrator's key pair and signs the genesis.
 */
export const prepareStart = async (
  input: {
    readonly url: string;
    readonly teamName: string;
    /** The first administrator: the desk's signed-in administrator (their id becomes their team id). */
    readonly admin: { readonly id?: string; readonly name: string; readonly passphrase: string };
  },
  keyStore: KeyStore,
  options: TeamOptions & { readonly scryptCost?: ScryptCost } = {},
): Promise<PreparedStart> => {
  const url = await keepPassword(input.url, keyStore);
  const db = await open(url, keyStore, options);
  try {
    await migrate(db);
    const control = new TeamControl(db);
    if ((await control.team()) !== undefined)
      throw teamRefused('This database already holds a team.', "Join it with the team's fingerprint instead.");
    const teamId = randomUUID();
    const admin = await createOperatorKey(
      keyStore,
      teamId,
      input.admin.id ?? `op_${randomUUID()}`,
      input.admin.passphrase,
      options.scryptCost ?? DEFAULT_SCRYPT_COST,
    );
    const genesis = control.signGenesis(input.teamName, admin, input.admin.name, teamId);
    return {
      settings: { url, fingerprint: genesis.fingerprint, teamId, deskId: `desk_${randomUUID()}` },
      genesis,
      admin,
    };
  } finally {
    await db.close();
  }
};

/** The first desk, step two: writes the signed genesis (refused if another team got there first). */
export const applyStart = async (
  prepared: Omit<PreparedStart, 'admin'>,
  keyStore: KeyStore,
  options: TeamOptions = {},
) => {
  const db = await open(prepared.settings.url, keyStore, options);
  try {
    await migrate(db);
    await new TeamControl(db).insertGenesis(prepared.genesis);
  } finally {
    await db.close();
  }
};

/**
 * The first desk, in one go: migrates an empty database and creates the team with its first
 * administrator, whose key pair is made here. Returns the settings to keep and the administrator's
 * signer; the fingerprint in them is what the other desks need to join.
 */
export const startTeam = async (
  input: Parameters<typeof prepareStart>[0],
  keyStore: KeyStore,
  options: TeamOptions & { readonly scryptCost?: ScryptCost } = {},
): Promise<{ readonly settings: TeamSettings; readonly admin: OperatorSigner }> => {
  const prepared = await prepareStart(input, keyStore, options);
  await applyStart(prepared, keyStore, options);
  return { settings: prepared.settings, admin: prepared.admin };
};

/**
 * Another desk: checks that the database holds the team with this fingerprint (compared out of band
 * with the first desk's) and that its chain verifies. Returns the settings to keep.
 */
export const joinTeam = async (
  input: { readonly url: string; readonly fingerprint: string },
  keyStore: KeyStore,
  options: TeamOptions = {},
): Promise<TeamSettings> => {
  const url = await keepPassword(input.url, keyStore);
  const db = await open(url, keyStore, options);
  try {
    await migrate(db);
    const verdict = await new TeamControl(db).verified({ fingerprint: input.fingerprint.trim() });
    if (!verdict.ok)
      throw teamRefused(
        `This desk cannot join: ${verdict.problem}`,
        "Check the URL and the fingerprint shown on the team's first desk.",
      );
    return {
      url,
      fingerprint: verdict.state.fingerprint,
      teamId: verdict.state.team,
      deskId: `desk_${randomUUID()}`,
      controlAnchor: verdict.state.head,
    };
  } finally {
    await db.close();
  }
};

export type TeamIntegrity = { readonly ok: true } | { readonly ok: false; readonly problem: string };

/** An open team: its stores, the verified control state, live changes, health and integrity. */
export interface OpenTeam {
  readonly db: TeamDatabase;
  readonly control: TeamControl;
  readonly movements: TeamMovements;
  readonly audit: TeamAudit;
  readonly enrolments: TeamEnrolments;
  readonly senders: TeamSenders;
  /** The control state as last verified (operators, roles, keys, policies). */
  state(): ControlState;
  /** Whether the control chain still verifies (from the desk's anchor). */
  integrity(): TeamIntegrity;
  /** The settings with the newest anchor, to keep (after every successful verification). */
  settings(): TeamSettings;
  /**
   * Verifies the chain again now (after this desk applied a change: its own write is current at
   * once, before the notification of it comes back).
   */
  verifyNow(): Promise<TeamIntegrity>;
  close(): Promise<void>;
}

/**
 * Opens the team at a desk's start: connects (password from the keychain), migrates, verifies the
 * control chain against the pinned fingerprint and the desk's anchor, and listens for changes.
 * Refuses to open on a chain that does not verify. `onChange` hears every change after the state
 * it concerns is current; `onIntegrity` hears the integrity turn.
 */
export const openTeam = async (
  kept: TeamSettings,
  keyStore: KeyStore,
  options: TeamOptions & {
    readonly onChange?: (change: TeamChange) => void;
    readonly onIntegrity?: (integrity: TeamIntegrity) => void;
  } = {},
): Promise<OpenTeam> => {
  const db = await open(kept.url, keyStore, options);
  let settings = kept;
  let state: ControlState;
  let integrity: TeamIntegrity = { ok: true };
  const control = new TeamControl(db);
  const verify = async (): Promise<TeamIntegrity> => {
    const verdict = await control.verified({
      fingerprint: settings.fingerprint,
      ...(settings.controlAnchor ? { anchor: settings.controlAnchor } : {}),
    });
    if (!verdict.ok) return { ok: false, problem: verdict.problem };
    state = verdict.state;
    settings = { ...settings, controlAnchor: verdict.state.head };
    return { ok: true };
  };
  try {
    await migrate(db);
    const first = await verify();
    if (!first.ok)
      throw teamRefused(
        `The team's control chain does not verify: ${first.problem}`,
        'Nothing is sent from this desk until an administrator has checked the team database (docs/team.md, "Recovery").',
      );
  } catch (error) {
    await db.close();
    throw error;
  }

  const reverify = async (): Promise<TeamIntegrity> => {
    const now = await verify().catch(() => integrity);
    if (now.ok !== integrity.ok || (!now.ok && !integrity.ok && now.problem !== integrity.problem)) {
      integrity = now;
      options.onIntegrity?.(now);
    }
    return integrity;
  };
  const heard = async (change: TeamChange) => {
    if (change.kind === 'control.changed') await reverify();
    options.onChange?.(change);
  };
  // Changes are handled one after the other, in order.
  let queue = Promise.resolve();
  const live = new TeamLive(
    db,
    (change) => {
      queue = queue.then(() => heard(change));
    },
    options.timers ? { timers: options.timers } : {},
  );
  await live.start();
  return {
    db,
    control,
    movements: new TeamMovements(db, settings.deskId),
    audit: new TeamAudit(db, state!.team, settings.deskId),
    enrolments: new TeamEnrolments(db, state!.team),
    senders: new TeamSenders(db, settings.deskId),
    state: () => state,
    integrity: () => integrity,
    settings: () => settings,
    verifyNow: reverify,
    async close() {
      await live.stop();
      await queue;
      await db.close();
    },
  };
};
