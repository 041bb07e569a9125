/**
 * Handlers of the `keys` area: API keys of a sub-account.
 *
 * A sub-account's key decides who may act on that account, so creating one, changing its name,
 * permissions or IP whitelist, and deleting it are control changes (operators/controls.ts): the
 * trusted confirmation shows what changes (before → after, the account by its name and UID), and
 * once the desk has two administrators the change waits in Approvals until the other one approves
 * it. A change applies to the profile it was prepared on (approving it from another is refused), and
 * an update or delete whose key changed meanwhile is not applied.
 *
 * The secret of a new key never reaches the app's window: the platform returns it once, at
 * creation (when the change applies — with four eyes, when the other administrator approves it),
 * and main shows it in the shell's own page (`showSecret`: its own site, which the window cannot
 * read; shown once) so the person can copy it, and — when they asked for that in the form — keeps
 * it in the OS keychain (KeyStore). No operation returns it, and it never enters the journal, the
 * audit log, a log line or an error message.
 */
import type { DeskHandlers } from '../../shared/contract';
import type { KeyView, PermMatrix } from '../../shared/contract/keys';
import type { ControlChangeRow } from '../../shared/contract/policies';
import { subAccountName } from '../../shared/contract/transfers';
import type { ServiceContext } from '../context';
import { assertSafeText, DeskFailure } from '../errors';
import type { ControlKindHandler, ControlPlane } from '../operators/controls';
import type { ShowSecret } from '../policies/confirmPage';
import { subKeyEntry, toKeyView, toPlatformPerms } from '../subAccounts/views';

const MODE = { classic: 1, unified: 2 } as const;

const permsText = (perms: Record<string, string | undefined>): string =>
  Object.entries(perms)
    .filter(([, access]) => access !== undefined && access !== 'none')
    .map(([group, access]) => `${group}: ${access}`)
    .join(', ') || 'none';

const whitelistText = (ips: readonly string[]): string => ips.join(', ') || 'none (the key expires after 90 days)';

/** A key id as the confirmation names it: its first and last four characters. */
const shortKey = (key: string): string => `${key.slice(0, 4)}…${key.slice(-4)}`;

/** What a key change keeps in the journal while it waits (never a secret). */
interface KeyChangeRequest {
  readonly profileId: string;
  readonly userId: number;
  readonly key: string;
  readonly name: string;
  readonly mode: 'classic' | 'unified';
  readonly perms: PermMatrix;
  readonly ipWhitelist: readonly string[];
  readonly keepSecretInKeychain: boolean;
  /** The key as it was when the change was prepared (update, delete): applied only if it still is. */
  readonly before: string;
}

/** A key's name, permissions and whitelist, to tell whether it changed since a change was prepared. */
const keyState = (k: Pick<KeyView, 'name' | 'perms' | 'ipWhitelist'>): string =>
  JSON.stringify([k.name ?? '', permsText(k.perms), [...k.ipWhitelist].sort()]);

/** Whether the keychain holds this key's secret; an unavailable keychain counts as "no". */
const inKeychain = async (ctx: ServiceContext, entry: string): Promise<boolean> => {
  try {
    return (await ctx.keyStore.get(entry)) !== undefined;
  } catch {
    return false;
  }
};

const activeProfileId = (ctx: ServiceContext): string => {
  const profile = ctx.activeProfile();
  if (profile === undefined) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
  return profile.id;
};

/** The key as the platform has it now, as the app shows it. */
const readKey = async (ctx: ServiceContext, profileId: string, userId: number, key: string): Promise<KeyView> =>
  toKeyView(
    await ctx.platform().subAccounts.getKey(userId, key),
    userId,
    await inKeychain(ctx, subKeyEntry(profileId, userId, key)),
    Date.now(),
  );

/** Refused when the key changed since the change was prepared: it was confirmed against what was there. */
const assertUnchanged = async (ctx: ServiceContext, r: KeyChangeRequest): Promise<KeyView> => {
  const now = await readKey(ctx, r.profileId, r.userId, r.key);
  if (keyState(now) !== r.before) {
    throw DeskFailure.precondition(
      `API key ${shortKey(r.key)} of sub-account ${r.userId} was changed since this change was prepared; nothing was changed.`,
      'Prepare the change again if it is still needed.',
    );
  }
  return now;
};

/** The sub-accounts' API-key changes, as control kinds (see the module's comment). */
export const keyControlKinds = (ctx: ServiceContext, showSecret: ShowSecret | undefined) =>
  ({
    'keys.create': {
      onActiveProfile: true,
      apply: async (request) => {
        const r = request as unknown as KeyChangeRequest;
        const body = {
          mode: MODE[r.mode],
          name: r.name,
          perms: toPlatformPerms(r.perms),
          ip_whitelist: [...r.ipWhitelist],
        };
        const created = await ctx.platform().subAccounts.createKey(r.userId, body);
        let secretStored = false;
        let storeProblem: string | undefined;
        if (r.keepSecretInKeychain) {
          try {
            await ctx.keyStore.set(subKeyEntry(r.profileId, r.userId, created.key), {
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
        const key = toKeyView(publicPart, r.userId, secretStored, Date.now());
        // Shown in the shell's own page, once; the answer below carries no secret.
        const { shown } = showSecret
          ? await showSecret({
              title: `New API key for sub-account ${r.userId}`,
              rows: [
                { label: 'Sub-account', value: String(r.userId) },
                { label: 'Key', value: created.key },
                { label: 'Name', value: r.name },
                { label: 'Permissions', value: permsText(r.perms) },
              ],
              secrets: [{ label: 'Secret', value: secret }],
              note: secretStored
                ? 'A copy is kept in this computer’s keychain for Treasury Desk.'
                : 'Treasury Desk does not keep it: once this window is closed, nobody can show it again.',
            }).catch(() => ({ shown: false }))
          : { shown: false };
        return { key, secretShown: shown, secretStored, ...(storeProblem ? { storeProblem } : {}) };
      },
    },
    'keys.update': {
      onActiveProfile: true,
      apply: async (request) => {
        const r = request as unknown as KeyChangeRequest;
        await assertUnchanged(ctx, r);
        // Both lists are always sent in full: the platform clears perms or ip_whitelist when omitted.
        const body = { name: r.name, perms: toPlatformPerms(r.perms), ip_whitelist: [...r.ipWhitelist] };
        await ctx.platform().subAccounts.updateKey(r.userId, r.key, body);
        return readKey(ctx, r.profileId, r.userId, r.key);
      },
    },
    'keys.delete': {
      onActiveProfile: true,
      apply: async (request) => {
        const r = request as unknown as KeyChangeRequest;
        await assertUnchanged(ctx, r);
        await ctx.platform().subAccounts.deleteKey(r.userId, r.key);
        let secretForgotten = false;
        try {
          secretForgotten = await ctx.keyStore.delete(subKeyEntry(r.profileId, r.userId, r.key));
        } catch {
          secretForgotten = false;
        }
        return { deleted: true as const, secretForgotten };
      },
    },
  }) satisfies Record<string, ControlKindHandler>;

/** Every line of a key, before → after ("—": none). */
const keyChanges = (
  before: Pick<KeyView, 'name' | 'perms' | 'ipWhitelist'> | undefined,
  after: Pick<KeyView, 'name' | 'perms' | 'ipWhitelist'> | undefined,
): ControlChangeRow[] => [
  { label: 'Name', before: before ? (before.name ?? '—') : '—', after: after ? (after.name ?? '—') : '—' },
  {
    label: 'Permissions',
    before: before ? permsText(before.perms) : '—',
    after: after ? permsText(after.perms) : '—',
  },
  {
    label: 'IP whitelist',
    before: before ? whitelistText(before.ipWhitelist) : '—',
    after: after ? whitelistText(after.ipWhitelist) : '—',
  },
];

export const createKeysHandlers = (
  ctx: ServiceContext,
  controls: ControlPlane,
  showSecret: ShowSecret | undefined,
): DeskHandlers['keys'] => {
  /** The sub-account as the review names it: "desk_ops (UID 10000003)". */
  const accountName = async (userId: number): Promise<string> => {
    const account = await ctx
      .platform()
      .subAccounts.get(userId)
      .catch(() => undefined);
    return subAccountName(String(userId), account?.login_name);
  };

  /**
   * A change of an existing key: the key as it is now (its "before", which the change must still
   * find when it applies), the account's name, and what the change keeps and shows besides its
   * lines. `after`: the key's new name, permissions and whitelist (none for a delete).
   */
  const existingKeyChange = async (
    userId: number,
    key: string,
    after?: { name: string; perms: PermMatrix; ipWhitelist: readonly string[] },
  ) => {
    const profileId = activeProfileId(ctx);
    const [before, account] = await Promise.all([readKey(ctx, profileId, userId, key), accountName(userId)]);
    const request: KeyChangeRequest = {
      profileId,
      userId,
      key,
      name: after?.name ?? before.name ?? '',
      mode: before.mode === 'unified' ? 'unified' : 'classic',
      perms: after?.perms ?? before.perms,
      ipWhitelist: after?.ipWhitelist ?? before.ipWhitelist,
      keepSecretInKeychain: false,
      before: keyState(before),
    };
    return {
      before,
      account,
      plan: {
        profileId,
        apply: { ...request },
        facts: [
          { label: 'Sub-account', value: account },
          { label: 'Key', value: key, group: 4 },
        ],
      },
    };
  };

  return {
    list: async ({ userId }) => {
      const profile = activeProfileId(ctx);
      const raw = await ctx.platform().subAccounts.listKeys(userId);
      const now = Date.now();
      const keys = await Promise.all(
        raw.map(async (k) => toKeyView(k, userId, await inKeychain(ctx, subKeyEntry(profile, userId, k.key)), now)),
      );
      return { keys };
    },

    create: async ({ userId, name, mode, perms, ipWhitelist, keepSecretInKeychain }) => {
      assertSafeText({ name: [name, 'name'] });
      const profileId = activeProfileId(ctx);
      // The secret exists only in the platform's answer: with nowhere to show or keep it, the key
      // would be useless. Said before anything is created.
      if (showSecret === undefined && !keepSecretInKeychain) {
        throw DeskFailure.precondition(
          'This window cannot show a new key’s secret, so the key was not created.',
          'Tick “Keep the secret in the keychain”, or create the key in the desktop app.',
        );
      }
      const account = await accountName(userId);
      const request: KeyChangeRequest = {
        profileId,
        userId,
        key: '',
        name,
        mode,
        perms,
        ipWhitelist,
        keepSecretInKeychain,
        before: '',
      };
      return controls.submit<Awaited<ReturnType<DeskHandlers['keys']['create']>>>({
        kind: 'keys.create',
        profileId,
        title: `Create an API key for ${account}`,
        changes: [...keyChanges(undefined, { name, perms, ipWhitelist }), { label: 'Mode', before: '—', after: mode }],
        apply: { ...request },
        facts: [{ label: 'Sub-account', value: account }],
        note: 'Its secret is shown once, in Treasury Desk’s own window, when the key is created.',
        confirmLabel: 'Create key',
      });
    },

    update: async ({ userId, key, name, perms, ipWhitelist }) => {
      assertSafeText({ name: [name, 'name'] });
      const change = await existingKeyChange(userId, key, { name, perms, ipWhitelist });
      return controls.submit<KeyView>({
        kind: 'keys.update',
        title: `Change API key ${shortKey(key)} of ${change.account}`,
        changes: keyChanges(change.before, { name, perms, ipWhitelist }),
        confirmLabel: 'Change key',
        ...change.plan,
      });
    },

    delete: async ({ userId, key }) => {
      const change = await existingKeyChange(userId, key);
      return controls.submit<Awaited<ReturnType<DeskHandlers['keys']['delete']>>>({
        kind: 'keys.delete',
        title: `Delete API key ${shortKey(key)} of ${change.account}`,
        changes: keyChanges(change.before, undefined),
        note: 'Anything using this key stops working at once.',
        confirmLabel: 'Delete key',
        ...change.plan,
      });
    },
  };
};
