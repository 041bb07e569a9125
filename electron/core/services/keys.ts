/**
 * Handlers of the `keys` area: API keys of a sub-account.
 *
 * The secret of a new key never reaches the app's window: the platform returns it once, at
 * creation, and main shows it in the shell's own page (`showSecret`: its own site, which the window
 * cannot read; shown once) so the person can copy it, and — when they asked for that in the form —
 * keeps it in the OS keychain (KeyStore). No operation returns it, and it never enters the audit
 * log, a log line or an error message.
 */
import type { DeskHandlers } from '../../../shared/contract';
import { assertSafeText, DeskFailure } from '../errors';
import type { ConfirmChange } from '../policies/authorize';
import type { ShowSecret } from '../policies/confirmPage';
import { subKeyEntry, toKeyView, toPlatformPerms } from '../subAccounts/views';
import type { ServiceContext } from './context';

const MODE = { classic: 1, unified: 2 } as const;

const permsText = (perms: Record<string, string | undefined>): string =>
  Object.entries(perms)
    .filter(([, access]) => access !== undefined && access !== 'none')
    .map(([group, access]) => `${group}: ${access}`)
    .join(', ') || 'none';

export const createKeysHandlers = (
  ctx: ServiceContext,
  confirmChange: ConfirmChange,
  showSecret: ShowSecret | undefined,
): DeskHandlers['keys'] => {
  const profileId = (): string => {
    const profile = ctx.activeProfile();
    if (profile === undefined) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
    return profile.id;
  };

  /** Whether the keychain holds this key's secret; an unavailable keychain counts as "no". */
  const inKeychain = async (entry: string): Promise<boolean> => {
    try {
      return (await ctx.keyStore.get(entry)) !== undefined;
    } catch {
      return false;
    }
  };

  return {
    list: async ({ userId }) => {
      const profile = profileId();
      const raw = await ctx.platform().subAccounts.listKeys(userId);
      const now = Date.now();
      const keys = await Promise.all(
        raw.map(async (k) => toKeyView(k, userId, await inKeychain(subKeyEntry(profile, userId, k.key)), now)),
      );
      return { keys };
    },

    create: async ({ userId, name, mode, perms, ipWhitelist, keepSecretInKeychain }) => {
      assertSafeText({ name: [name, 'name'] });
      const profile = profileId();
      // The secret exists only in the platform's answer: with nowhere to show or keep it, the key
      // would be useless. Said before anything is created.
      if (showSecret === undefined && !keepSecretInKeychain) {
        throw DeskFailure.precondition(
          'This window cannot show a new key’s secret, so the key was not created.',
          'Tick “Keep the secret in the keychain”, or create the key in the desktop app.',
        );
      }
      await confirmChange({
        action: 'keyCreate',
        title: `Create an API key for sub-account ${userId}`,
        rows: [
          { label: 'Sub-account', value: String(userId) },
          { label: 'Name', value: name },
          { label: 'Mode', value: mode },
          { label: 'Permissions', value: permsText(perms) },
          { label: 'IP whitelist', value: ipWhitelist.join(', ') || 'none (the key expires after 90 days)' },
        ],
        confirmLabel: 'Create key',
      });
      const body = { mode: MODE[mode], name, perms: toPlatformPerms(perms), ip_whitelist: ipWhitelist };
      const created = await ctx.platform().subAccounts.createKey(userId, body);
      let secretStored = false;
      let storeProblem: string | undefined;
      if (keepSecretInKeychain) {
        try {
          await ctx.keyStore.set(subKeyEntry(profile, userId, created.key), {
            key: created.key,
            secret: created.secret,
          });
          secretStored = true;
        } catch (error) {
          // The reason only (never the value): e.g. "no Secret Service on this session".
          storeProblem = `the keychain (${ctx.keyStore.backend}) refused it${error instanceof Error ? `: ${error.message}` : ''}.`;
        }
      }
      const { secret, ...publicPart } = created;
      const key = toKeyView(publicPart, userId, secretStored, Date.now());
      // Shown in the shell's own page, once; the answer below carries no secret.
      const { shown } = showSecret
        ? await showSecret({
            title: `New API key for sub-account ${userId}`,
            rows: [
              { label: 'Sub-account', value: String(userId) },
              { label: 'Key', value: created.key },
              { label: 'Name', value: name },
              { label: 'Permissions', value: permsText(perms) },
            ],
            secrets: [{ label: 'Secret', value: secret }],
            note: secretStored
              ? 'A copy is kept in this computer’s keychain for Treasury Desk.'
              : 'Treasury Desk does not keep it: once this window is closed, nobody can show it again.',
          }).catch(() => ({ shown: false }))
        : { shown: false };
      return { key, secretShown: shown, secretStored, ...(storeProblem ? { storeProblem } : {}) };
    },

    update: async ({ userId, key, name, perms, ipWhitelist }) => {
      assertSafeText({ name: [name, 'name'] });
      const profile = profileId();
      await confirmChange({
        action: 'keyUpdate',
        title: `Change API key ${key.slice(0, 4)}…${key.slice(-4)} of sub-account ${userId}`,
        rows: [
          { label: 'Sub-account', value: String(userId) },
          { label: 'Key', value: `${key.slice(0, 4)}…${key.slice(-4)}` },
          { label: 'Name', value: name },
          { label: 'Permissions', value: permsText(perms) },
          { label: 'IP whitelist', value: ipWhitelist.join(', ') || 'none (the key expires after 90 days)' },
        ],
        confirmLabel: 'Change key',
      });
      // Both lists are always sent in full: the platform clears perms or ip_whitelist when omitted.
      const body = { name, perms: toPlatformPerms(perms), ip_whitelist: ipWhitelist };
      await ctx.platform().subAccounts.updateKey(userId, key, body);
      const fresh = await ctx.platform().subAccounts.getKey(userId, key);
      return toKeyView(fresh, userId, await inKeychain(subKeyEntry(profile, userId, key)), Date.now());
    },

    delete: async ({ userId, key }) => {
      const profile = profileId();
      await confirmChange({
        action: 'keyDelete',
        title: `Delete API key ${key.slice(0, 4)}…${key.slice(-4)} of sub-account ${userId}`,
        rows: [
          { label: 'Sub-account', value: String(userId) },
          { label: 'Key', value: `${key.slice(0, 4)}…${key.slice(-4)}` },
        ],
        note: 'Anything using this key stops working at once.',
        confirmLabel: 'Delete key',
      });
      await ctx.platform().subAccounts.deleteKey(userId, key);
      let secretForgotten = false;
      try {
        secretForgotten = await ctx.keyStore.delete(subKeyEntry(profile, userId, key));
      } catch {
        secretForgotten = false;
      }
      return { deleted: true as const, secretForgotten };
    },
  };
};
