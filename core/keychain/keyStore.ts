/**
 * Where API secrets live: the OS keychain, behind this small port. Nothing else in the app ever
 * holds a secret at rest; the renderer never sees one (only a masked key id).
 */

/** The app's name as the keychain service: one entry per profile key. */
export const KEYCHAIN_SERVICE = 'Treasury Desk';

export interface StoredKey {
  /** The API key (public part). */
  readonly key: string;
  /** The secret (used for signing only; never logged, never sent to the renderer). */
  readonly secret: string;
  /** The host the key was saved for; it is never sent to another (absent in entries saved before). */
  readonly host?: string;
}

export interface KeyStore {
  /** Which backend holds the secrets, in words for Settings ("Secret Service", "memory only, forgotten when the app closes"). */
  readonly backend: string;
  /** Stores (or replaces) the key of an entry, e.g. a profile id. */
  set(entry: string, value: StoredKey): Promise<void>;
  /** The key of an entry, or undefined when none is stored. */
  get(entry: string): Promise<StoredKey | undefined>;
  /** Removes an entry; true when something was removed. */
  delete(entry: string): Promise<boolean>;
}

/** Shows which key is meant without revealing it: first 4 and last 4 characters. */
export const maskKey = (key: string): string =>
  key.length <= 8 ? `${key.slice(0, 2)}…` : `${key.slice(0, 4)}…${key.slice(-4)}`;

/** A key store that keeps secrets in memory (tests), as Settings names it. */
export const MEMORY_BACKEND = 'memory only, forgotten when the app closes';

/** In-memory adapter: for unit tests only (secrets vanish with the process). */
export class MemoryKeyStore implements KeyStore {
  readonly backend = MEMORY_BACKEND;
  private readonly entries = new Map<string, StoredKey>();

  async set(entry: string, value: StoredKey): Promise<void> {
    this.entries.set(entry, { ...value });
  }

  async get(entry: string): Promise<StoredKey | undefined> {
    const value = this.entries.get(entry);
    return value ? { ...value } : undefined;
  }

  async delete(entry: string): Promise<boolean> {
    return this.entries.delete(entry);
  }
}
