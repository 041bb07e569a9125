/**
 * Handlers of the `profiles` area: secrets go in through setKey and never come back out.
 *
 * Adding, removing a profile and setting or removing its key are control changes (where signed
 * requests go and whose account the desk works on): the trusted confirmation shows the change —
 * for a key, the account UID that key belongs to, read with it before anything is saved — and with
 * two administrators another one approves it. A key waiting for approval waits in the OS keychain
 * (an entry of its own), never in the journal.
 */
import { randomUUID } from 'node:crypto';
import type { DeskHandlers } from '../../shared/contract';
import type { ProfileView } from '../../shared/contract/profiles';
import type { ServiceContext } from '../context';
import { assertSafeText, DeskFailure } from '../errors';
import type { CoreInternals } from '../internals';
import { type KeyStore, MemoryKeyStore, maskKey } from '../keychain/keyStore';
import { keychainAdvice, OsKeyStore } from '../keychain/osKeyStore';
import type { ControlKindHandler, ControlPlane } from '../operators/controls';
import { readKeyAccount } from './keyAccount';
import type { ProfileManager } from './manager';

/** The keychain entry of a key that waits for its approval. */
const pendingEntry = () => `pending-key:${randomUUID()}`;

const profileOf = (profiles: ProfileManager, id: string): ProfileView => {
  const p = profiles.list().find((x) => x.id === id);
  if (!p) throw DeskFailure.precondition('There is no such profile.');
  return p;
};

const kindWords: Readonly<Record<ProfileView['kind'], string>> = {
  sandbox: 'built-in sandbox',
  testnet: 'testnet',
  live: 'live',
  futures_alt: 'live (futures alternative address)',
  custom: 'custom endpoint',
};

/** The profiles' control changes: what each applies, and when it no longer applies as prepared. */
export const profileControlKinds = (profiles: ProfileManager, keyStore: KeyStore) => {
  const find = (id: unknown) => profiles.list().find((p) => p.id === id);
  const gone = (r: Record<string, unknown>) => (find(r.id) ? undefined : `Profile ${String(r.name)} no longer exists.`);
  const keyMoved = (r: Record<string, unknown>) => {
    const p = find(r.id);
    if (!p) return gone(r);
    return (p.keyMask ?? '') === r.beforeMask ? undefined : `The key of ${p.name} was changed since.`;
  };
  return {
    'profiles.add': {
      apply: async (r) => profiles.add(r.input as Parameters<ProfileManager['add']>[0]),
    },
    'profiles.setKey': {
      apply: async (r) => {
        const pending = await keyStore.get(String(r.pending));
        if (!pending) throw DeskFailure.precondition('The key that waited is no longer in the keychain: set it again.');
        const view = await profiles.setKey(String(r.id), { key: pending.key, secret: pending.secret });
        await keyStore.delete(String(r.pending));
        return view;
      },
      stale: keyMoved,
      discard: async (r) => {
        await keyStore.delete(String(r.pending));
      },
    },
    'profiles.removeKey': {
      apply: async (r) => profiles.removeKey(String(r.id)),
      stale: keyMoved,
    },
    'profiles.remove': {
      apply: async (r) => ({ removed: await profiles.remove(String(r.id)) }),
      stale: gone,
    },
  } satisfies Record<string, ControlKindHandler>;
};

export const createProfilesHandlers = (
  ctx: ServiceContext,
  core: CoreInternals,
  controls: ControlPlane,
): DeskHandlers['profiles'] => {
  const { profiles } = core;
  return {
    list: async () => profiles.list(),
    active: async () => profiles.activeView() ?? null,
    switch: async ({ id }) => {
      const status = await profiles.switchTo(id);
      ctx.audit.record({
        action: 'profiles.switch',
        params: { id },
        outcome: status.state === 'error' ? 'error' : 'ok',
        profileId: id,
      });
      return status;
    },
    // A new profile decides where signed requests may go (a custom endpoint: its address).
    add: async (input) => {
      assertSafeText({ name: [input.name, 'name'] });
      return controls.submit<ProfileView>({
        kind: 'profiles.add',
        profileId: '',
        title:
          input.kind === 'custom'
            ? `Add an endpoint: ${input.baseUrl ?? ''}`
            : `Add a ${kindWords[input.kind]} profile`,
        changes: [
          { label: 'Profile', before: '—', after: input.name },
          {
            label: 'Connects to',
            before: '—',
            after: input.kind === 'custom' ? (input.baseUrl ?? '') : kindWords[input.kind],
          },
        ],
        apply: { input },
        confirmLabel: input.kind === 'custom' ? 'Add endpoint' : 'Add profile',
      });
    },
    update: async (input) => {
      assertSafeText({ name: [input.name, 'name'] });
      const profile = await profiles.update(input);
      ctx.audit.record({ action: 'profiles.update', params: input, outcome: 'ok', profileId: profile.id });
      return profile;
    },
    remove: async ({ id }) => {
      const p = profileOf(profiles, id);
      return controls.submit<{ removed: boolean }>({
        kind: 'profiles.remove',
        profileId: id,
        title: `Remove profile ${p.name}`,
        changes: [{ label: 'Profile', before: `${p.name} (${kindWords[p.kind]})`, after: 'removed, with its key' }],
        apply: { id, name: p.name },
        confirmLabel: 'Remove profile',
      });
    },
    setKey: async ({ id, key, secret }) => {
      const p = profileOf(profiles, id);
      // Whose key it is, read with it before anything is saved.
      const account = await readKeyAccount(p.baseUrl, { key, secret });
      const uid = 'userId' in account ? String(account.userId) : `not read (${account.problem})`;
      const other = 'userId' in account && p.userId !== undefined && p.userId !== account.userId;
      // Waits in the keychain (never the journal) until it applies; dropped if it never does.
      const pending = pendingEntry();
      await ctx.keyStore.set(pending, { key, secret });
      try {
        return await controls.submit<ProfileView>({
          kind: 'profiles.setKey',
          profileId: id,
          title: `Set the API key of ${p.name}`,
          changes: [
            { label: 'API key', before: p.keyMask ?? 'none', after: maskKey(key) },
            { label: 'Account (UID)', before: p.userId !== undefined ? String(p.userId) : 'unknown', after: uid },
          ],
          apply: { id, name: p.name, pending, beforeMask: p.keyMask ?? '' },
          confirmLabel: 'Save key',
          note: other
            ? `This key belongs to ANOTHER account (UID ${uid}) than the current one (UID ${p.userId}): balances, deposit addresses and every movement of ${p.name} would be that account's.`
            : 'userId' in account
              ? `The key belongs to account ${uid}.`
              : `The account of this key could not be read: ${account.problem}. Check the key before you save it.`,
        });
      } catch (error) {
        // Waiting for another administrator keeps it; anything else means it will never apply.
        if (!(error instanceof DeskFailure && error.detail.code === 'AWAITING_APPROVAL'))
          await ctx.keyStore.delete(pending);
        throw error;
      }
    },
    removeKey: async ({ id }) => {
      const p = profileOf(profiles, id);
      return controls.submit<ProfileView>({
        kind: 'profiles.removeKey',
        profileId: id,
        title: `Remove the API key of ${p.name}`,
        changes: [{ label: 'API key', before: p.keyMask ?? 'none', after: 'none' }],
        apply: { id, name: p.name, beforeMask: p.keyMask ?? '' },
        confirmLabel: 'Remove key',
      });
    },
    // Reads only unless the person starts the deep check (its write probes are audited per request).
    connectionCheck: async ({ deep }) => profiles.check({ deep: deep === true }),
    status: async () => profiles.status(),
    keychainStatus: async () => {
      const store = core.keyStore;
      if (store instanceof MemoryKeyStore) return { available: true, backend: store.backend };
      if (store instanceof OsKeyStore) {
        const probe = await store.probe();
        return probe.available
          ? { available: true, backend: store.backend }
          : { available: false, backend: store.backend, problem: probe.problem, advice: probe.advice };
      }
      return { available: true, backend: store.backend, advice: keychainAdvice() };
    },
  };
};
