/**
 * Which account an API key belongs to, read with that key before it is saved (a signed read over a
 * fresh connection to the profile's own address): a live profile's key replaced by another account's
 * key would make Deposits show that account's addresses, so the trusted confirmation shows the UID.
 */
import { ApiError } from '../api/apiError';
import type { StoredKey } from '../keychain/keyStore';
import { PlatformConnection } from './connection';

export type KeyAccount = { readonly userId: number } | { readonly problem: string };

export const readKeyAccount = async (baseUrl: string, key: StoredKey, timeoutMs = 8_000): Promise<KeyAccount> => {
  const connection = new PlatformConnection({ baseUrl, credentials: key, timeoutMs });
  try {
    await connection.client.syncClock();
    // GET /account/detail names the user; where an address lacks it, the signed fee read does.
    const userId = await connection.api.account
      .detail()
      .then((d) => d.user_id)
      .catch(async (error: unknown) => {
        if (!(error instanceof ApiError) || error.label !== 'NOT_FOUND') throw error;
        return (await connection.api.wallet.fee()).user_id;
      });
    return userId ? { userId } : { problem: 'the platform did not say which account it is' };
  } catch (error) {
    const label = error instanceof ApiError && error.label ? `${error.label}: ` : '';
    return { problem: `${label}${error instanceof Error ? error.message : String(error)}` };
  } finally {
    connection.close();
  }
};
