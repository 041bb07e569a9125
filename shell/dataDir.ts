/** Where the app keeps its data when run through the fallback shell (per user, per OS). */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const defaultDataDir = (env: NodeJS.ProcessEnv = process.env, platform = process.platform): string => {
  if (env.TREASURY_DESK_DATA_DIR) return env.TREASURY_DESK_DATA_DIR;
  const base =
    platform === 'darwin'
      ? join(homedir(), 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
        : (env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'));
  return join(base, 'treasury-desk', 'chromium-shell');
};
