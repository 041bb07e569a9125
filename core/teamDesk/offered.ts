/**
 * A team URL given at start (`npm start -- --team <url>`, TREASURY_DESK_TEAM_URL): Settings → Team
 * offers to join it. A password in it goes to the keychain at once; what is offered (shown) never
 * holds it. A URL that cannot be read is logged and ignored (the desk starts alone).
 */
import type { KeyStore } from '../keychain/keyStore';
import { parseTeamUrl, saveTeamPassword } from '../team';

export const offeredTeamUrl = async (
  input: string | undefined,
  keyStore: KeyStore,
  logError?: (what: string, error: unknown) => void,
): Promise<string | undefined> => {
  if (input === undefined || input.trim() === '') return undefined;
  try {
    const { url, password } = parseTeamUrl(input);
    if (password !== undefined) await saveTeamPassword(keyStore, url, password);
    return url.text;
  } catch (error) {
    logError?.('team.url', error);
    return undefined;
  }
};
