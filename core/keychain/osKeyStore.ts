/**
 * The real KeyStore: the OS keychain through @napi-rs/keyring (macOS Keychain, Windows Credential
 * Manager, the Secret Service on Linux). On Linux the Secret Service is REQUIRED: the library's
 * silent fallback to the kernel keyring would lose keys at reboot, and there is no plaintext
 * fallback either. When no keychain works, every call fails with a KEYCHAIN error saying how to fix it.
 */
import { createRequire } from 'node:module';
import type { AsyncEntry as Entry } from '@napi-rs/keyring';
import { DeskFailure } from '../errors';
import { KEYCHAIN_SERVICE, type KeyStore, type StoredKey } from './keyStore';

const FIX_LINUX =
  'Install and unlock a Secret Service keyring (GNOME Keyring or KWallet; Debian/Ubuntu: `sudo apt install gnome-keyring`), make sure a D-Bus session is running, then restart the app.';
const FIX_OTHER = 'Unlock the system keychain (log in to your user session) and try again.';

export const keychainAdvice = (): string => (process.platform === 'linux' ? FIX_LINUX : FIX_OTHER);

const keychainFailure = (what: string, cause: unknown): DeskFailure => {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DeskFailure({
    code: 'KEYCHAIN',
    message: `The OS keychain could not ${what} (${reason}). Keys are never stored anywhere else.`,
    advice: keychainAdvice(),
  });
};

/**
 * The binding is CommonJS: require() loads it alone, where an ES import would first scan its entry
 * for its exports (10-15 ms more CPU on every start, measured alone).
 */
const { AsyncEntry } = createRequire(import.meta.url)('@napi-rs/keyring') as typeof import('@napi-rs/keyring');

export class OsKeyStore implements KeyStore {
  readonly backend =
    process.platform === 'linux'
      ? 'Secret Service'
      : process.platform === 'darwin'
        ? 'macOS Keychain'
        : 'Windows Credential Manager';

  constructor(private readonly service: string = KEYCHAIN_SERVICE) {}

  private entry(name: string): Entry {
    try {
      return new AsyncEntry(
        this.service,
        name,
        process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined,
      );
    } catch (cause) {
      throw keychainFailure('be opened', cause);
    }
  }

  async set(name: string, value: StoredKey): Promise<void> {
    try {
      await this.entry(name).setPassword(
        JSON.stringify({ key: value.key, secret: value.secret, ...(value.host ? { host: value.host } : {}) }),
      );
    } catch (cause) {
      if (cause instanceof DeskFailure) throw cause;
      throw keychainFailure('store the key', cause);
    }
  }

  async get(name: string): Promise<StoredKey | undefined> {
    let text: string | null;
    try {
      text = await this.entry(name).getPassword();
    } catch (cause) {
      if (cause instanceof DeskFailure) throw cause;
      throw keychainFailure('read the key', cause);
    }
    if (text === null) return undefined;
    try {
      const parsed = JSON.parse(text) as Partial<StoredKey>;
      if (typeof parsed.key === 'string' && typeof parsed.secret === 'string')
        return {
          key: parsed.key,
          secret: parsed.secret,
          ...(typeof parsed.host === 'string' ? { host: parsed.host } : {}),
        };
    } catch {
      // fall through: an entry we did not write
    }
    throw new DeskFailure({
      code: 'KEYCHAIN',
      message: `The keychain entry “${name}” of ${this.service} is not in the app's format.`,
      advice: 'Enter the key again in Settings → Profiles.',
    });
  }

  async delete(name: string): Promise<boolean> {
    try {
      return await this.entry(name).deleteCredential();
    } catch (cause) {
      if (cause instanceof DeskFailure) throw cause;
      throw keychainFailure('delete the key', cause);
    }
  }

  /** Whether the keychain works right now (writes, reads and deletes a probe entry). */
  async probe(): Promise<{ available: true } | { available: false; problem: string; advice: string }> {
    const name = `probe-${process.pid}-${Date.now()}`;
    try {
      await this.set(name, { key: 'probe', secret: 'probe' });
      const back = await this.get(name);
      await this.delete(name);
      if (back?.secret !== 'probe')
        return { available: false, problem: 'the keychain did not return what was stored', advice: keychainAdvice() };
      return { available: true };
    } catch (error) {
      return {
        available: false,
        problem: error instanceof Error ? error.message : String(error),
        advice: keychainAdvice(),
      };
    }
  }
}
