/**
 * Rotating sub-accounts' API keys in bulk (docs/bulk.md, "Sub-accounts and keys in bulk"): for each
 * selected key a new one with the same permissions, IP whitelist and mode, tested with a signed read;
 * the secrets shown once in the shell's own page (never returned to the window) or written to an
 * encrypted file (keyFile.ts). The old keys are deleted only
 * after the operator says the new ones work AND each new key passes the test again; main keeps the
 * new secrets in memory for that (30 minutes at most, never on disk). Both steps are API-key changes:
 * the trusted confirmation first.
 */
import type { DeskHandlers } from '../../shared/contract';
import type { RotatedKey } from '../../shared/contract/bulk';
import { SubAccountPermName } from '../../shared/platform/api/subAccounts';
import type { PlatformApi } from '../api/platform';
import { DeskFailure, isConvertibleToIpcError } from '../errors';
import type { AuditLog } from '../journal/types';
import type { ConfirmChange } from '../policies/authorize';
import type { ShowSecret } from '../policies/confirmPage';
import { PlatformConnection } from '../profiles/connection';
import type { ActiveProfile } from '../types';
import { encryptKeyFile, type KeyFileEntry } from './keyFile';

/** New key secrets wait here (memory only) until the operator confirms the rotation; then dropped. */
const ROTATION_TTL_MS = 30 * 60_000;

export interface KeyRotationDeps {
  readonly platform: () => PlatformApi;
  readonly activeProfile: () => ActiveProfile | undefined;
  readonly audit: AuditLog;
  /** The role check and the trusted confirmation of an API-key change. */
  readonly confirmChange: ConfirmChange;
  /** Writes a file where the operator chooses (the save dialog); undefined when none was chosen. */
  readonly saveFile: (suggestedName: string, content: string) => Promise<string | undefined>;
  /** The shell's page for new secrets ("shown once"); absent: only the encrypted file is offered. */
  readonly showSecret?: ShowSecret | undefined;
  /**
   * Whether four eyes hold for control changes. A rotation hands the rotating administrator working
   * secrets of every selected sub-account at once, so with two administrators it is refused: each key
   * is then changed one at a time (`keys.*`), every change approved by the other administrator.
   */
  readonly fourEyesInForce: () => boolean;
}

export type KeyRotationHandlers = Pick<DeskHandlers['bulk'], 'rotateKeys' | 'confirmRotation'>;

const masked = (key: string) => `${key.slice(0, 4)}…${key.slice(-4)}`;

export const createKeyRotation = (deps: KeyRotationDeps): { handlers: KeyRotationHandlers; close(): void } => {
  const rotations = new Map<string, { secret: string; until: number }>();
  const profileId = (): string => {
    const p = deps.activeProfile();
    if (!p) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
    return p.id;
  };
  const rotationKey = (userId: number, key: string) => `${profileId()}:${userId}:${key}`;
  const forgetExpired = () => {
    const now = Date.now();
    for (const [k, v] of rotations) if (v.until < now) rotations.delete(k);
  };

  /** A signed read with the given key: does the platform accept it from this computer? */
  const testKey = async (key: string, secret: string): Promise<{ ok: boolean; message?: string }> => {
    const profile = deps.activeProfile();
    if (!profile) return { ok: false, message: 'No profile is connected.' };
    const conn = new PlatformConnection({ baseUrl: profile.baseUrl, credentials: { key, secret } });
    try {
      await conn.client.syncClock();
      await conn.api.wallet.fee({});
      return { ok: true };
    } catch (error) {
      const label = isConvertibleToIpcError(error) ? error.toIpcError().label : undefined;
      return {
        ok: false,
        message:
          `The new key was refused${label ? ` (${label})` : ''}: ${error instanceof Error ? error.message : ''}`.trim(),
      };
    } finally {
      conn.close();
    }
  };

  const handlers: KeyRotationHandlers = {
    rotateKeys: async ({ targets, deliver }) => {
      forgetExpired();
      if (deps.fourEyesInForce()) {
        throw DeskFailure.precondition(
          'Four eyes are in force: a bulk rotation would give one administrator new secrets of every selected key without a second approval, so no key was created.',
          'Replace the keys one at a time in Sub-accounts → API keys; each new key applies once another administrator approves it in Approvals.',
        );
      }
      const { showSecret } = deps;
      // The new secrets exist only in the platform's answers: with nowhere to show them, none is made.
      if (deliver.to === 'screen' && showSecret === undefined) {
        throw DeskFailure.precondition(
          'This window cannot show new secrets, so no key was created.',
          'Have them written to an encrypted file instead.',
        );
      }
      // Creating keys is an API-key change: the operator confirms the whole rotation in the
      // trusted window (as for one key), or nothing is created.
      await deps.confirmChange({
        action: 'keyCreate',
        title: `Rotate ${targets.length} API key${targets.length === 1 ? '' : 's'}: create a replacement for each`,
        rows: [
          { label: 'Keys', value: targets.map((t) => `sub-account ${t.userId}: ${masked(t.key)}`).join('; ') },
          { label: 'New keys', value: 'the same permissions, IP whitelist and mode as the key they replace' },
          {
            label: 'Secrets',
            value:
              deliver.to === 'file'
                ? 'written to an encrypted file you choose'
                : 'shown once in Treasury Desk’s own window',
          },
          { label: 'Old keys', value: 'kept until you confirm the new ones work' },
        ],
        confirmLabel: 'Create the new keys',
      });
      const api = deps.platform();
      const out: RotatedKey[] = [];
      const fileEntries: KeyFileEntry[] = [];
      for (const { userId, key } of targets) {
        try {
          const old = await api.subAccounts.getKey(userId, key);
          const created = await api.subAccounts.createKey(userId, {
            ...(old.mode === 1 || old.mode === 2 ? { mode: old.mode } : {}),
            name: `${(old.name ?? 'key').slice(0, 40)} (rotated)`,
            // The same permissions (names the platform lists for keys; any other is not a key permission).
            perms: old.perms.flatMap((perm) => {
              const name = SubAccountPermName.safeParse(perm.name);
              return name.success ? [{ name: name.data, read_only: perm.read_only }] : [];
            }),
            ip_whitelist: old.ip_whitelist,
          });
          rotations.set(rotationKey(userId, created.key), {
            secret: created.secret,
            until: Date.now() + ROTATION_TTL_MS,
          });
          const test = await testKey(created.key, created.secret);
          out.push({
            userId,
            oldKey: key,
            newKey: created.key,
            state: test.ok ? 'verified' : 'created',
            ...(test.message ? { message: test.message } : {}),
          });
          fileEntries.push({
            userId,
            key: created.key,
            secret: created.secret,
            replaces: key,
            ipWhitelist: old.ip_whitelist,
            createdAt: new Date().toISOString(),
          });
        } catch (error) {
          out.push({
            userId,
            oldKey: key,
            state: 'failed',
            message: error instanceof Error ? error.message : 'failed',
          });
        }
      }
      // Shown once in the shell's own page, all together; the answer below carries none of them.
      const shown =
        deliver.to === 'screen' && showSecret !== undefined && fileEntries.length > 0
          ? (
              await showSecret({
                title: `New API key${fileEntries.length === 1 ? '' : 's'} from the rotation`,
                rows: fileEntries.map((e) => ({
                  label: `Sub-account ${e.userId}`,
                  value: `${e.key} (replaces ${masked(e.replaces)})`,
                })),
                secrets: fileEntries.map((e) => ({
                  label: `Secret of ${e.key} (sub-account ${e.userId})`,
                  value: e.secret,
                })),
                note: 'Treasury Desk keeps these only for 30 minutes, to test the new keys again before deleting the old ones; nobody can show them again.',
              }).catch(() => ({ shown: false }))
            ).shown
          : undefined;
      const keys = shown === undefined ? out : out.map((k) => (k.newKey ? { ...k, secretShown: shown } : k));
      let file: string | undefined;
      if (deliver.to === 'file' && fileEntries.length > 0) {
        const encrypted = encryptKeyFile(fileEntries, deliver.passphrase);
        file = await deps.saveFile(
          `sub-account-keys-${new Date().toISOString().slice(0, 10)}.tdkeys.json`,
          `${JSON.stringify(encrypted, null, 2)}\n`,
        );
        if (!file)
          throw DeskFailure.precondition(
            'No file was chosen: the new keys exist but their secrets were not saved. Delete them and rotate again.',
          );
      }
      deps.audit.record({
        action: 'bulk.rotateKeys',
        params: {
          keys: keys.map((k) => ({ userId: k.userId, oldKey: k.oldKey, newKey: k.newKey, state: k.state })),
          delivered: deliver.to,
        },
        outcome: 'ok',
      });
      return { keys, ...(file ? { file } : {}) };
    },

    confirmRotation: async ({ pairs }) => {
      forgetExpired();
      await deps.confirmChange({
        action: 'keyDelete',
        title: `Delete ${pairs.length} old API key${pairs.length === 1 ? '' : 's'} replaced by rotation`,
        rows: [
          {
            label: 'Keys to delete',
            value: pairs.map((p) => `sub-account ${p.userId}: ${masked(p.oldKey)}`).join('; '),
          },
          { label: 'Condition', value: 'each only after its new key passes a signed test again' },
        ],
        confirmLabel: 'Delete the old keys',
      });
      const out: RotatedKey[] = [];
      for (const { userId, oldKey, newKey } of pairs) {
        const held = rotations.get(rotationKey(userId, newKey));
        if (!held) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message:
              'The new key’s test is no longer possible (the app forgets new secrets after 30 minutes or a restart); the old key was kept. Delete it by hand once the new one works.',
          });
          continue;
        }
        const test = await testKey(newKey, held.secret);
        if (!test.ok) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message: `${test.message ?? 'The new key does not work'}; the old key was kept.`,
          });
          continue;
        }
        try {
          await deps.platform().subAccounts.deleteKey(userId, oldKey);
          rotations.delete(rotationKey(userId, newKey));
          out.push({ userId, oldKey, newKey, state: 'replaced' });
        } catch (error) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message: error instanceof Error ? error.message : 'failed',
          });
        }
      }
      return { keys: out };
    },
  };
  return { handlers, close: () => rotations.clear() };
};
