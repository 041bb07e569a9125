/**
 * Switching profile, from the top bar or Settings. Everything on screen belongs to the active
 * profile, so every cached answer is dropped; switching to a live profile asks first, because
 * from then on every action moves real money.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { isRealMoney, type Profile } from '../../../shared/contract/profiles';
import { useDeskMutation } from '../lib/desk';
import { notify } from '../lib/notify';
import { ConfirmDialog } from './Dialog';

type ProfileView = z.output<typeof Profile>;

const isLive = (profile: ProfileView) => isRealMoney(profile.kind);

/** The profile each cache was last emptied for (see forgetOtherProfile). */
const forgottenFor = new WeakMap<QueryClient, string>();

/**
 * After a profile change nothing of the previous profile may stay on screen: every cached answer
 * is dropped (not merely marked stale, which keeps showing it until a new answer comes, and a
 * profile without a key never answers). Screens show "loading" until their new profile's data
 * arrives. The profile list and status are about every profile and are read again.
 */
export const forgetOtherProfile = async (client: QueryClient): Promise<void> => {
  // Once per profile: main's connectionChanged event and the switch's own answer both ask (in either
  // order); a second reset would read every screen's data of the new profile twice.
  const now = client.getQueryData<{ profileId?: string }>(['profiles.status', {}])?.profileId;
  if (now !== undefined && forgottenFor.get(client) === now) return;
  if (now !== undefined) forgottenFor.set(client, now);
  const perProfile = (q: { queryKey: readonly unknown[] }) => !String(q.queryKey[0]).startsWith('profiles.');
  await Promise.all([
    client.resetQueries({ predicate: perProfile }),
    client.invalidateQueries({ predicate: (q) => !perProfile(q) }),
  ]);
};

export const useProfileSwitch = (): {
  readonly request: (profile: ProfileView) => void;
  readonly pendingId: string | undefined;
  readonly dialog: ReactNode;
} => {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<ProfileView | null>(null);
  const switchProfile = useDeskMutation('profiles.switch', {
    onSuccess: async (status) => {
      client.setQueryData(['profiles.status', {}], status);
      await forgetOtherProfile(client);
      setConfirming(null);
    },
    onError: (error) => {
      if (confirming === null)
        notify({ tone: 'bad', title: 'Could not switch profile', message: error.message, sticky: true });
    },
  });
  const request = (profile: ProfileView) => {
    if (isLive(profile)) setConfirming(profile);
    else switchProfile.mutate({ id: profile.id });
  };
  const dialog = (
    <ConfirmDialog
      open={confirming !== null}
      title="Switch to a live profile?"
      confirmLabel="Switch to live"
      tone="danger"
      busy={switchProfile.isPending}
      error={switchProfile.error}
      testId="confirm-live-switch"
      onCancel={() => {
        switchProfile.reset();
        setConfirming(null);
      }}
      onConfirm={() => confirming && switchProfile.mutate({ id: confirming.id })}
    >
      <p>
        “{confirming?.name}” connects to the real platform at <code>{confirming?.baseUrl}</code>. From now on,
        withdrawals, transfers and orders move real money.
      </p>
    </ConfirmDialog>
  );
  return { request, pendingId: switchProfile.isPending ? switchProfile.variables?.id : undefined, dialog };
};
