/**
 * What every area's handlers get from the core: the active profile's platform API, money
 * movements (journaled), the audit log, balance snapshots, settings, the keychain and events to
 * the renderer. Built once in core.ts; handlers never construct these themselves.
 *
 * Rules for handlers:
 * - Read the platform with `ctx.platform()`: it is the active profile's client, already signed,
 *   rate-limited and clock-corrected. It throws DeskFailure PRECONDITION when not connected.
 * - Move funds ONLY with `ctx.movements` (never `platform().withdrawals.create` or
 *   `platform().wallet.transfer` directly): it journals the intent first and never sends twice.
 * - Writes through `ctx.platform()` are audited automatically (action, account, parameters without
 *   secrets, outcome/label, request id). Record app-local writes (settings, keys) with `ctx.audit`.
 * - Throw the platform's ApiError as is (the dispatcher turns it into {code:'PLATFORM', label,
 *   advice, requestId}); throw DeskFailure for app-side problems.
 */

import type { PlatformApi } from './api/platform';
import type { PlatformStream } from './api/stream';
import type { AuditLog, BalanceSnapshots, Settings } from './journal/types';
import type { KeyStore } from './keychain/keyStore';
import type { Movements } from './movements/types';
import type { Scheduler } from './scheduler';
import type { ActiveProfile, Emit } from './types';

export type { ActiveProfile, Emit } from './types';

export interface ServiceContext {
  readonly emit: Emit;
  /** Directory for the app's data (journal, settings, embedded sandbox state). */
  readonly dataDir: string;
  /** Which shell the core runs in. */
  readonly shell: 'electron' | 'chromium';
  /** The active profile's platform operations; throws DeskFailure PRECONDITION when not connected. */
  platform(): PlatformApi;
  /** The active profile's WebSocket stream, when its address has one (else REST only). */
  stream(): PlatformStream | undefined;
  /** The active profile, or undefined before the first profile is ready. */
  activeProfile(): ActiveProfile | undefined;
  /** Calls `listener` after every profile switch (reset caches, restart feeds); returns unsubscribe. */
  onProfileChange(listener: (profile: ActiveProfile | undefined) => void): () => void;
  /** The only way to move funds. */
  readonly movements: Movements;
  readonly audit: AuditLog;
  readonly snapshots: BalanceSnapshots;
  readonly settings: Settings;
  readonly keyStore: KeyStore;
  /** Time: timers, waits and "how long ago" go through it (scheduler.ts), never setTimeout or Date.now. */
  readonly scheduler: Scheduler;
}
