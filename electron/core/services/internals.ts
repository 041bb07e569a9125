/**
 * What the profiles and activity handlers need beyond the shared context. Built by core.ts; it
 * lives here, in the handlers' layer, so that the handlers never import core.ts (the core's
 * composition root sits above them — docs/architecture.md, "Layers").
 */
import type { HistorySync } from '../history/sync';
import type { KeyStore } from '../keychain/keyStore';
import type { MovementEngine } from '../movements/engine';
import type { ProfileManager } from '../profiles/manager';
import type { AppDeps } from './app';

export interface CoreInternals {
  readonly profiles: ProfileManager;
  readonly movementService: MovementEngine;
  readonly history: HistorySync;
  readonly keyStore: KeyStore;
  /** Saving files and the lock (the `app` area). */
  readonly app?: AppDeps;
}
