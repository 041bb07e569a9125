/**
 * Profiles: where the app connects and with which key. The built-in sandbox profile always exists
 * and is the default: the core starts the embedded sandbox (data in dataDir/sandbox), stores its
 * key in the keychain and connects, so the app works on first start with nothing to configure.
 * Testnet, live and the futures alternative entry are added by the person, each with one main key.
 * Switching profile closes the old connection (sockets, limiter, clock) and builds a new one.
 */
import path from 'node:path';
import type { ConnectionCheck, ConnectionStatus, ProfileKind, ProfileView } from '../../shared/contract/profiles';
import { ApiError } from '../api/apiError';
import type { RequestRecord } from '../api/client';
import { LARGE_OFFSET_MS } from '../api/clock';
import { helpForLabel } from '../api/labels';
import type { PlatformApi } from '../api/platform';
import type { PlatformStream } from '../api/stream';
import { DeskFailure } from '../errors';
import { type Db, statement } from '../journal/db';
import { type KeyStore, maskKey, type StoredKey } from '../keychain/keyStore';
import { BACKGROUND, type Scheduler, type Timer } from '../scheduler';
import type { ActiveProfile } from '../types';
import { runConnectionCheck } from './check';
import { PlatformConnection } from './connection';

export const SANDBOX_PROFILE_ID = 'local-sandbox';

/**
 * REST is asked again 1 s after it failed, then after twice as long each time up to 30 s (see
 * probeRest): a passing fault is over in a second, and an address that stays unreachable (testnet
 * offline, a cable out) is not asked every second for hours.
 */
const REST_PROBE_MS = 1_000;
const REST_PROBE_MAX_MS = 30_000;

/**
 * The platform's addresses (api-facts "Base URL", §7.2; the futures alternative entry as the
 * platform publishes it). Constants: whatever a profile row or the renderer says, these kinds
 * connect here and nowhere else (docs/security.md).
 */
export const PINNED_URLS: Record<'live' | 'testnet' | 'futures_alt', string> = {
  live: 'https://api.gateio.ws/api/v4',
  testnet: 'https://api-testnet.gateapi.io/api/v4',
  futures_alt: 'https://fx-api.gateio.ws/api/v4',
};

/**
 * The platform's WebSocket API for live (api-facts §8). Testnet, the futures alternative (futures
 * only) and custom endpoints have no spot stream the app knows of: they use REST polling.
 */
const LIVE_STREAM_URL = 'wss://api.gateio.ws/ws/v4/';

/** The host a key may be sent to ("api.gateio.ws", "proxy.example:8443"). */
const hostOf = (url: string): string => new URL(url).host;

/** Where a sandbox someone else runs listens, and the key of its account. */
export interface SandboxAddress {
  readonly baseUrl: string;
  readonly key: string;
  readonly secret: string;
}

/** How the local sandbox profile reaches a sandbox. */
export type SandboxSource =
  /** Start the built-in sandbox in-process with its data in dataDir/sandbox (the app's default). */
  | { readonly mode: 'embedded'; readonly clock?: 'real' | 'manual'; readonly market?: 'on' | 'off' }
  /** A sandbox someone else runs (e2e tests): its address and a key… */
  | ({ readonly mode: 'external' } & SandboxAddress)
  /**
   * A sandbox still starting in its own process (the shells start it beside the core): the core
   * builds everything else meanwhile, and only the sandbox profile's connection waits for this.
   */
  | { readonly mode: 'external-later'; readonly address: Promise<SandboxAddress> }
  /** …or its control URL and token: the core asks it for a new main account and key. */
  | { readonly mode: 'external-control'; readonly controlUrl: string; readonly controlToken: string }
  /** No sandbox profile connection (unit tests). */
  | { readonly mode: 'off' };

interface ProfileRow {
  id: string;
  kind: ProfileKind;
  name: string;
  base_url: string;
  key_mask: string | null;
  user_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProfileManagerOptions {
  readonly db: Db;
  readonly dataDir: string;
  readonly keyStore: KeyStore;
  readonly sandbox: SandboxSource;
  /** The core's time, for each connection (limiter, clock, stream) and the limiter events' pacing. */
  readonly scheduler: Scheduler;
  readonly timeoutMs?: number;
  readonly limiterScale?: number;
  /** Use the platform's WebSocket stream where the address has one (default true; benchmarks compare). */
  readonly streams?: boolean;
  readonly onStatus: (status: ConnectionStatus) => void;
  readonly onLimiter: (status: ConnectionStatus['limiter']) => void;
  readonly onRequest: (profileId: string, record: RequestRecord) => void;
  readonly onSwitch: (profile: ActiveProfile | undefined) => void;
  readonly unresolvedMovements: () => number;
  readonly log?: (message: string) => void;
}

const keyEntry = (profileId: string) => `profile:${profileId}`;

interface EmbeddedSandbox {
  readonly baseUrl: string;
  readonly key: string;
  readonly secret: string;
  close(): Promise<void>;
}

export class ProfileManager {
  private connection: PlatformConnection | undefined;
  private activeId: string | undefined;
  private state: ConnectionStatus['state'] = 'disconnected';
  private lastError: ConnectionStatus['lastError'];
  /** Whether the platform's WebSocket stream is open (the market still arrives through it). */
  private streamOpen = false;
  /** Since when REST requests fail (no answer, or a 5xx), while they do. */
  private restFailingSince: number | undefined;
  /** The 'error' state is REST failing with the stream gone too (not a key, clock or set-up problem): REST answering ends it. */
  private errorIsRestFailing = false;
  private checkedAt: number | undefined;
  private lastCheck: ConnectionCheck | undefined;
  private embedded: EmbeddedSandbox | undefined;
  private sandboxUrl: string | undefined;
  private limiterTimer: Timer | undefined;
  /** While REST is failing: the next light request that asks whether it answers again. */
  private restProbe: Timer | undefined;
  private restProbeDelayMs = REST_PROBE_MS;
  private switching: Promise<ConnectionStatus> | undefined;

  constructor(private readonly options: ProfileManagerOptions) {
    const db = options.db;
    if (options.sandbox.mode !== 'off') {
      // One statement, not check-then-insert: nothing can slip in between.
      const now = Date.now();
      statement(
        db,
        'INSERT OR IGNORE INTO profiles (id, kind, name, base_url, key_mask, user_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)',
      ).run(SANDBOX_PROFILE_ID, 'sandbox', 'Local sandbox', '(built in)', null, null, now, now);
    }
  }

  // ----------------------------------------------------------------------------- queries

  list(): ProfileView[] {
    return this.rows().map((r) => this.view(r));
  }

  active(): ActiveProfile | undefined {
    if (this.activeId === undefined) return undefined;
    const row = this.row(this.activeId);
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      baseUrl: this.urlOf(row),
      ...(row.user_id !== null ? { userId: row.user_id } : {}),
    };
  }

  activeView(): ProfileView | undefined {
    const row = this.activeId ? this.row(this.activeId) : undefined;
    return row ? this.view(row) : undefined;
  }

  /** The active profile's API; throws PRECONDITION when not connected. */
  /** The active connection's WebSocket stream, when it has one. */
  stream(): PlatformStream | undefined {
    return this.connection?.stream();
  }

  platform(): PlatformApi {
    if (this.connection === undefined || this.activeId === undefined) {
      throw DeskFailure.precondition(
        'The app is not connected to a platform.',
        'Pick a profile in Settings → Profiles and check its connection.',
      );
    }
    return this.connection.api;
  }

  currentConnection(): PlatformConnection | undefined {
    return this.connection;
  }

  status(): ConnectionStatus {
    const connection = this.connection;
    const offset = connection?.clock.last === undefined ? undefined : Math.round(connection.clock.offsetMs);
    return {
      profileId: this.activeId ?? null,
      state: this.state,
      ...(offset !== undefined ? { clockOffsetMs: offset } : {}),
      clockWarning: offset !== undefined && Math.abs(offset) >= LARGE_OFFSET_MS,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      limiter: connection ? this.limiterView() : { queued: 0, headroom: 1, buckets: [] },
      unresolvedMovements: this.options.unresolvedMovements(),
      ...(this.checkedAt ? { checkedAt: this.checkedAt } : {}),
      ...(this.state === 'degraded' && this.restFailingSince ? { degradedSince: this.restFailingSince } : {}),
    };
  }

  // ----------------------------------------------------------------------------- commands

  /** Connects the last used profile (or the sandbox) at start. */
  async start(): Promise<ConnectionStatus> {
    const rows = this.rows();
    const last = statement<[], { value: string }>(
      this.options.db,
      "SELECT value FROM settings WHERE key = 'profiles.active'",
    ).get();
    const preferred = last ? (JSON.parse(last.value) as string) : SANDBOX_PROFILE_ID;
    const target = rows.find((r) => r.id === preferred) ?? rows.find((r) => r.id === SANDBOX_PROFILE_ID) ?? rows[0];
    if (!target) return this.status();
    return this.switchTo(target.id);
  }

  switchTo(id: string): Promise<ConnectionStatus> {
    const previous = this.switching ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.doSwitch(id));
    this.switching = next;
    return next;
  }

  add(input: { kind: 'testnet' | 'live' | 'futures_alt' | 'custom'; name: string; baseUrl?: string }): ProfileView {
    let baseUrl: string;
    if (input.kind === 'custom') {
      // The contract checked it; main checks again, since this decides where signed requests go.
      if (input.baseUrl === undefined || new URL(input.baseUrl).protocol !== 'https:') {
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: 'A custom endpoint needs an https address.',
          fields: { baseUrl: 'Only an https address is accepted' },
        });
      }
      baseUrl = normalizeUrl(input.baseUrl);
    } else {
      if (input.baseUrl !== undefined) {
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: 'This kind of profile uses the platform’s own address.',
          fields: { baseUrl: 'This kind of profile uses the platform’s own address; it cannot be changed' },
        });
      }
      baseUrl = PINNED_URLS[input.kind];
    }
    const id = `${input.kind}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const now = Date.now();
    statement(
      this.options.db,
      'INSERT INTO profiles (id, kind, name, base_url, key_mask, user_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)',
    ).run(id, input.kind, input.name, baseUrl, null, null, now, now);
    return this.view(this.row(id) as ProfileRow);
  }

  async update(input: { id: string; name?: string }): Promise<ProfileView> {
    const row = this.mustRow(input.id);
    statement(this.options.db, 'UPDATE profiles SET name = ?, updated_at = ? WHERE id = ?').run(
      input.name ?? row.name,
      Date.now(),
      row.id,
    );
    return this.view(this.mustRow(row.id));
  }

  async remove(id: string): Promise<boolean> {
    const row = this.mustRow(id);
    if (row.kind === 'sandbox') throw DeskFailure.precondition('The built-in sandbox profile cannot be removed.');
    if (this.activeId === id) throw DeskFailure.precondition('Switch to another profile before removing this one.');
    await this.options.keyStore.delete(keyEntry(id));
    statement(this.options.db, 'DELETE FROM profiles WHERE id = ?').run(id);
    return true;
  }

  async setKey(id: string, key: StoredKey): Promise<ProfileView> {
    const row = this.mustRow(id);
    // Bound to the host it is saved for: it is never sent anywhere else (see connect).
    await this.options.keyStore.set(keyEntry(id), { key: key.key, secret: key.secret, host: hostOf(this.urlOf(row)) });
    statement(this.options.db, 'UPDATE profiles SET key_mask = ?, user_id = NULL, updated_at = ? WHERE id = ?').run(
      maskKey(key.key),
      Date.now(),
      row.id,
    );
    if (this.activeId === id) await this.switchTo(id);
    return this.view(this.mustRow(id));
  }

  async removeKey(id: string): Promise<ProfileView> {
    const row = this.mustRow(id);
    if (row.kind === 'sandbox') throw DeskFailure.precondition('The built-in sandbox’s key is managed by the app.');
    await this.options.keyStore.delete(keyEntry(id));
    statement(this.options.db, 'UPDATE profiles SET key_mask = NULL, updated_at = ? WHERE id = ?').run(Date.now(), id);
    if (this.activeId === id) await this.switchTo(id);
    return this.view(this.mustRow(id));
  }

  /**
   * The connection check: reads only (the one run on connect); `deep` also sends the write probes,
   * only when the person asks for it (see check.ts).
   */
  async check(options: { readonly deep?: boolean } = {}): Promise<ConnectionCheck> {
    const connection = this.connection;
    const row = this.activeId ? this.row(this.activeId) : undefined;
    if (!connection || !row) throw DeskFailure.precondition('No profile is active.');
    const report = await runConnectionCheck(row.id, connection, row.kind, { deep: options.deep === true });
    this.lastCheck = report;
    this.checkedAt = report.checkedAt;
    if (report.userId !== undefined) {
      statement(this.options.db, 'UPDATE profiles SET user_id = ? WHERE id = ?').run(report.userId, row.id);
    }
    const failed = report.checks.find((c) => c.outcome === 'failed');
    this.setState(
      failed &&
        (failed.name === 'reachability' ||
          failed.name === 'signature' ||
          failed.name === 'environment' ||
          failed.name === 'ipWhitelist')
        ? 'error'
        : 'connected',
      failed
        ? {
            message: failed.detail,
            ...(failed.label ? { label: failed.label } : {}),
            ...(failed.advice ? { advice: failed.advice } : {}),
            at: Date.now(),
          }
        : undefined,
    );
    return report;
  }

  /** The app lock: the active connection forgets its signing secret (nothing else changes). */
  lock(): void {
    this.connection?.forgetCredentials();
  }

  /** Unlocking: the active profile's key is read again from the keychain (throws if it refuses). */
  async unlock(): Promise<void> {
    const connection = this.connection;
    const id = this.activeId;
    if (connection === undefined || id === undefined) return;
    connection.restoreCredentials(await this.keyFor(this.mustRow(id)));
  }

  lastConnectionCheck(): ConnectionCheck | undefined {
    return this.lastCheck;
  }

  private noteFailure(label: string, message?: string): void {
    const help = helpForLabel(label);
    this.lastError = { message: message ?? help.explanation, label, advice: help.advice, at: Date.now() };
    if (label === 'NETWORK_UNREACHABLE') this.state = this.failingState();
    this.options.onStatus(this.status());
  }

  /** Records an error seen by any operation (shown in the connection status). */
  noteError(error: unknown): void {
    if (!(error instanceof ApiError)) return;
    const ipc = error.toIpcError();
    this.lastError = {
      message: ipc.message,
      ...(ipc.label ? { label: ipc.label } : {}),
      ...(ipc.advice ? { advice: ipc.advice } : {}),
      at: Date.now(),
    };
    if (error.kind === 'unreachable') this.state = this.failingState();
    this.options.onStatus(this.status());
  }

  async close(): Promise<void> {
    this.limiterTimer?.cancel();
    this.restProbe?.cancel();
    await this.switching?.catch(() => undefined);
    this.connection?.close();
    this.connection = undefined;
    await this.embedded?.close();
    this.embedded = undefined;
  }

  // ----------------------------------------------------------------------------- internals

  private async doSwitch(id: string): Promise<ConnectionStatus> {
    const row = this.mustRow(id);
    this.connection?.close();
    this.connection = undefined;
    this.activeId = row.id;
    this.lastError = undefined;
    this.checkedAt = undefined;
    this.lastCheck = undefined;
    this.restFailingSince = undefined;
    this.restProbeDelayMs = REST_PROBE_MS;
    this.streamOpen = false;
    statement(
      this.options.db,
      "INSERT INTO settings (key, value) VALUES ('profiles.active', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ).run(JSON.stringify(row.id));
    this.setState('connecting');
    try {
      if (row.kind === 'sandbox') await this.prepareSandbox();
      const credentials = await this.keyFor(row);
      const streamUrl = this.streamUrlOf(row);
      this.connection = new PlatformConnection({
        baseUrl: this.urlOf(row),
        ...(streamUrl ? { streamUrl } : {}),
        ...(this.options.log ? { log: this.options.log } : {}),
        credentials,
        scheduler: this.options.scheduler,
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        ...(this.options.limiterScale ? { limiterScale: this.options.limiterScale } : {}),
        onRequest: (record) => {
          this.options.onRequest(row.id, record);
          const answered = record.status >= 200 && record.status < 300;
          if (answered) {
            this.restFailingSince = undefined;
            this.restProbeDelayMs = REST_PROBE_MS;
          } else if (record.status === 0 || record.status >= 500) this.restFailingSince ??= Date.now();
          if (answered && this.restFailingOnly()) {
            this.setState('connected'); // REST answers again
          } else if (record.status >= 500 && this.state === 'connected') {
            this.setState(this.failingState());
          }
          // Connection-level failures show in the status bar (unreachable, key refused, clock).
          if (record.status === 0 && record.label === 'NETWORK_UNREACHABLE')
            this.noteFailure(record.label, 'The platform could not be reached.');
          else if (record.status === 401 && record.label) this.noteFailure(record.label);
        },
        onLimiterChange: () => this.limiterChanged(),
        onStreamState: (state) => {
          this.streamOpen = state === 'open';
          // REST failing: degraded while the stream still brings the market, a problem once it is gone too.
          if (this.restFailingSince !== undefined && (this.state === 'degraded' || this.state === 'error')) {
            this.setState(this.failingState());
          }
        },
        onClockResync: () => this.options.onStatus(this.status()),
      });
      this.options.onSwitch(this.active());
      await this.check();
    } catch (error) {
      const ipc =
        error instanceof DeskFailure ? error.detail : error instanceof ApiError ? error.toIpcError() : undefined;
      this.setState('error', {
        message: ipc?.message ?? (error instanceof Error ? error.message : String(error)),
        ...(ipc?.label ? { label: ipc.label } : {}),
        ...(ipc?.advice ? { advice: ipc.advice } : {}),
        at: Date.now(),
      });
      if (this.connection === undefined) this.options.onSwitch(this.active());
    }
    return this.status();
  }

  /** Starts (once) the embedded sandbox or resolves the external one, and stores its key. */
  private async prepareSandbox(): Promise<void> {
    if (this.sandboxUrl !== undefined) return;
    const source = this.options.sandbox;
    let facts: SandboxAddress;
    if (source.mode === 'embedded') {
      const { startSandbox } = await import('../../sandbox/server');
      const handle = await startSandbox({
        dataDir: path.join(this.options.dataDir, 'sandbox'),
        port: 0,
        clock: source.clock ?? 'real',
        market: source.market ?? 'on',
        log: false,
      });
      this.embedded = handle;
      facts = handle;
    } else if (source.mode === 'external') {
      facts = source;
    } else if (source.mode === 'external-later') {
      facts = await source.address;
    } else if (source.mode === 'external-control') {
      facts = await provisionFromControl(source.controlUrl, source.controlToken);
    } else {
      throw DeskFailure.precondition('The local sandbox is switched off in this run.');
    }
    const stored = await this.options.keyStore.get(keyEntry(SANDBOX_PROFILE_ID));
    if (stored?.key !== facts.key || stored.secret !== facts.secret) {
      await this.options.keyStore.set(keyEntry(SANDBOX_PROFILE_ID), { key: facts.key, secret: facts.secret });
    }
    statement(this.options.db, 'UPDATE profiles SET key_mask = ?, updated_at = ? WHERE id = ?').run(
      maskKey(facts.key),
      Date.now(),
      SANDBOX_PROFILE_ID,
    );
    this.sandboxUrl = normalizeUrl(facts.baseUrl);
  }

  /** What REST requests failing means: degraded while the stream is open, else a connection problem. */
  private failingState(): ConnectionStatus['state'] {
    this.restFailingSince ??= Date.now();
    this.errorIsRestFailing = !this.streamOpen;
    this.probeRest();
    return this.streamOpen ? 'degraded' : 'error';
  }

  /** Whether all that is wrong is REST failing (degraded, or unreachable): REST answering ends it. */
  private restFailingOnly(): boolean {
    return (
      this.state === 'degraded' ||
      (this.state === 'error' && (this.errorIsRestFailing || this.lastError?.label === 'NETWORK_UNREACHABLE'))
    );
  }

  /**
   * While only REST failing is wrong, a light read (the platform's time) asks whether it answers
   * again — after 1 s, then backing off to every 30 s: a desk that sends nothing else would otherwise stay 'error' after one failed
   * request — its status bar red, and a team desk, which sends only while connected, idle.
   */
  private probeRest(): void {
    if (this.restProbe !== undefined) return;
    this.restProbe = this.options.scheduler.setTimeout(
      () => {
        this.restProbe = undefined;
        const connection = this.connection;
        if (connection === undefined || !this.restFailingOnly()) return;
        // Its answer (or failure) reaches onRequest, which sets the state and probes again if needed.
        void connection.client.syncClock().catch(() => this.probeRest());
      },
      this.restProbeDelayMs,
      BACKGROUND,
    );
    this.restProbeDelayMs = Math.min(REST_PROBE_MAX_MS, this.restProbeDelayMs * 2);
  }

  private setState(state: ConnectionStatus['state'], error?: ConnectionStatus['lastError']): void {
    this.state = state;
    // Any other way into (or out of) 'error' is not REST failing: only REST answering again ends that one.
    if (error || state !== 'error') this.errorIsRestFailing = false;
    if (error) this.lastError = error;
    else if (state === 'connected') this.lastError = undefined;
    this.options.onStatus(this.status());
  }

  private limiterView(): ConnectionStatus['limiter'] {
    const snap = this.connection?.limiter.snapshot();
    if (!snap) return { queued: 0, headroom: 1, buckets: [] };
    return { queued: snap.queued, headroom: snap.headroom, buckets: snap.buckets.map((b) => ({ ...b })) };
  }

  /** Limiter changes are coalesced to at most ~4 events a second. */
  private limiterChanged(): void {
    if (this.limiterTimer) return;
    this.limiterTimer = this.options.scheduler.setTimeout(
      () => {
        this.limiterTimer = undefined;
        this.options.onLimiter(this.limiterView());
      },
      250,
      BACKGROUND,
    );
  }

  /** The sandbox serves its WebSocket API on the same server as its REST API. */
  private streamUrlOf(row: ProfileRow): string | undefined {
    if (this.options.streams === false) return undefined;
    if (row.kind === 'live') return LIVE_STREAM_URL;
    if (row.kind !== 'sandbox') return undefined;
    const base = new URL(this.urlOf(row));
    return `${base.protocol === 'https:' ? 'wss' : 'ws'}://${base.host}/ws/v4/`;
  }

  /** Where a profile connects: for live, testnet and the futures alternative, main's constant. */
  private urlOf(row: ProfileRow): string {
    if (row.kind === 'sandbox') return this.sandboxUrl ?? row.base_url;
    if (row.kind === 'custom') return row.base_url;
    return PINNED_URLS[row.kind];
  }

  /**
   * The stored key of a profile when it may be sent to where the profile connects: a key saved for
   * another host (an address changed behind the app's back, an old journal) is not used at all.
   */
  private async keyFor(row: ProfileRow): Promise<StoredKey | undefined> {
    const stored = await this.options.keyStore.get(keyEntry(row.id));
    if (stored === undefined || row.kind === 'sandbox') return stored;
    const host = hostOf(this.urlOf(row));
    if (stored.host !== undefined && stored.host !== host) {
      this.noteFailure(
        'KEY_HOST_MISMATCH',
        `This profile’s key was saved for ${stored.host}; it is never sent to ${host}. Set the key again if this is intended.`,
      );
      return undefined;
    }
    return stored;
  }

  private view(row: ProfileRow): ProfileView {
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      baseUrl: this.urlOf(row),
      ...(row.key_mask ? { keyMask: row.key_mask } : {}),
      ...(row.user_id !== null ? { userId: row.user_id } : {}),
      active: row.id === this.activeId,
      managed: row.kind === 'sandbox',
    };
  }

  private rows(): ProfileRow[] {
    return statement<[], ProfileRow>(
      this.options.db,
      "SELECT * FROM profiles ORDER BY CASE kind WHEN 'sandbox' THEN 0 ELSE 1 END, created_at",
    ).all();
  }

  private row(id: string): ProfileRow | undefined {
    return statement<[string], ProfileRow>(this.options.db, 'SELECT * FROM profiles WHERE id = ?').get(id);
  }

  private mustRow(id: string): ProfileRow {
    const row = this.row(id);
    if (!row) throw DeskFailure.precondition(`There is no profile “${id}”.`);
    return row;
  }
}

const normalizeUrl = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
};

/** Asks an external sandbox's control plane for a new main account with a full key. */
const provisionFromControl = async (
  controlUrl: string,
  controlToken: string,
): Promise<{ baseUrl: string; key: string; secret: string }> => {
  const base = controlUrl.replace(/\/+$/, '');
  const response = await fetch(`${base}/users`, {
    method: 'POST',
    // The control plane answers only who started the sandbox (its token; docs/security.md).
    headers: { 'content-type': 'application/json', 'x-sandbox-token': controlToken },
    body: '{}',
  });
  if (!response.ok)
    throw DeskFailure.precondition(`The sandbox control plane refused to create a user (HTTP ${response.status}).`);
  const body = (await response.json()) as { key?: string; secret?: string; base_url?: string };
  if (typeof body.key !== 'string' || typeof body.secret !== 'string') {
    throw DeskFailure.precondition('The sandbox control plane answered without a key.');
  }
  return { baseUrl: body.base_url ?? `${new URL(base).origin}/api/v4`, key: body.key, secret: body.secret };
};
