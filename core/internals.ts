/**
 * What the profiles and activity handlers need beyond the shared context. Built by core.ts; it
 * lives here, in the handlers' layer, so that the handlers never import core.ts (the core's
 * composition root sits above them — docs/architecture.md, "Layers").
 */

import type { AuditTrust } from './activity/auditTrust';
import type { AppDeps } from './app/handlers';
import type { HistorySync } from './history/sync';
import type { KeyStore } from './keychain/keyStore';
import type { MovementEngine } from './movements/engine';
import type { ConfirmChange } from './policies/authorize';
import type { ShowSecret } from './policies/confirmPage';
import type { ProfileManager } from './profiles/manager';

export interface CoreInternals {
  readonly profiles: ProfileManager;
  readonly movementService: MovementEngine;
  readonly history: HistorySync;
  readonly keyStore: KeyStore;
  /** The audit log's check, its acknowledgement and the export's signature (activity/auditTrust.ts). */
  readonly auditTrust: AuditTrust;
  /** The role check and the trusted confirmation of a sensitive change (acknowledging a failed audit check). */
  readonly confirmChange: ConfirmChange;
  /** The shell's page for a new secret (keys.create), when the shell has one. */
  readonly showSecret?: ShowSecret;
  /** Saving files and the lock (the `app` area). */
  readonly app?: AppDeps;
}
