/** The active profile as the renderer knows it (from `profiles.list`); undefined while loading. */
import type { z } from 'zod';
import type { Profile } from '../../../shared/contract/profiles';
import { useDeskQuery } from './desk';

export type ActiveProfile = z.output<typeof Profile>;

export const useActiveProfile = (): ActiveProfile | undefined => {
  const profiles = useDeskQuery(['profiles.list', {}]);
  return profiles.data?.find((p) => p.active);
};
