import type { DeskHandlers } from '../../../shared/contract';
import { MemoryKeyStore } from '../keychain/keyStore';
import { keychainAdvice, OsKeyStore } from '../keychain/osKeyStore';
import type { ServiceContext } from './context';
import type { CoreInternals } from './internals';
import { assertSafeText } from './textSafety';

/** Handlers of the `profiles` area: secrets go in through setKey and never come back out. */
export const createProfilesHandlers = (ctx: ServiceContext, core: CoreInternals): DeskHandlers['profiles'] => {
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
    add: async (input) => {
      assertSafeText({ name: [input.name, 'name'] });
      // A custom endpoint decides where signed requests go: the trusted confirmation shows it.
      if (input.kind === 'custom') {
        await core.guard.change({
          action: 'endpoint',
          title: `Add an endpoint: ${input.baseUrl ?? ''}`,
          rows: [
            { label: 'Name', value: input.name },
            { label: 'Address', value: input.baseUrl ?? '' },
          ],
          confirmLabel: 'Add endpoint',
        });
      }
      const profile = profiles.add(input);
      ctx.audit.record({ action: 'profiles.add', params: input, outcome: 'ok', profileId: profile.id });
      return profile;
    },
    update: async (input) => {
      assertSafeText({ name: [input.name, 'name'] });
      const profile = await profiles.update(input);
      ctx.audit.record({ action: 'profiles.update', params: input, outcome: 'ok', profileId: profile.id });
      return profile;
    },
    remove: async ({ id }) => {
      const removed = await profiles.remove(id);
      ctx.audit.record({ action: 'profiles.remove', params: { id }, outcome: 'ok', profileId: id });
      return { removed };
    },
    setKey: async ({ id, key, secret }) => {
      const profile = await profiles.setKey(id, { key, secret });
      // Only the masked key id is audited; the secret never reaches the journal.
      ctx.audit.record({
        action: 'profiles.setKey',
        params: { id, key: profile.keyMask },
        outcome: 'ok',
        profileId: id,
      });
      return profile;
    },
    removeKey: async ({ id }) => {
      const profile = await profiles.removeKey(id);
      ctx.audit.record({ action: 'profiles.removeKey', params: { id }, outcome: 'ok', profileId: id });
      return profile;
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
