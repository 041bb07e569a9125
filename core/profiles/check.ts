/**
 * The connection check (users.md §3.1: "a Test connection screen that sorts failures into
 * signature, clock, IP, permission, wrong key version and wrong environment"). Runs on connect and
 * on demand, with READS ONLY: reachability, clock, signature, IP whitelist (GET /account/detail),
 * read permission per group. Sending writes to a live platform on every connect is not acceptable
 * (and a zero-amount withdrawal probe spends the withdrawal rate budget, so a real withdrawal just
 * before a switch met a 429): the write probes — requests the platform must refuse on their input
 * (amount 0, an order id that cannot exist), whose label tells whether the key may write — are the
 * DEEP check, sent only when the person starts it (`deep: true`; DEEP_CHECK_PROBES says what).
 */

import type { z } from 'zod';
import type { ConnectionCheck, PermissionGroup, PermissionLevel, ProfileKind } from '../../shared/contract/profiles';
import { DEEP_CHECK_PROBES } from '../../shared/contract/profiles';
import { ApiError } from '../api/apiError';
import { LARGE_OFFSET_MS } from '../api/clock';
import { helpForLabel } from '../api/labels';
import type { PlatformConnection } from './connection';

type Check = ConnectionCheck['checks'][number];
type Group = z.infer<typeof PermissionGroup>;
type Level = z.infer<typeof PermissionLevel>;

const failure = (error: unknown): Pick<Check, 'detail' | 'advice' | 'label' | 'requestId'> => {
  if (error instanceof ApiError) {
    const ipc = error.toIpcError();
    return {
      detail: ipc.message,
      ...(ipc.advice ? { advice: ipc.advice } : {}),
      label: error.label,
      requestId: error.requestId,
    };
  }
  return { detail: error instanceof Error ? error.message : String(error) };
};

export const runConnectionCheck = async (
  profileId: string,
  connection: PlatformConnection,
  kind: ProfileKind,
  options: { readonly deep?: boolean } = {},
): Promise<ConnectionCheck> => {
  const deep = options.deep === true;
  const checks: Check[] = [];
  const permissions: Record<Group, Level> = {
    spot: 'unknown',
    wallet: 'unknown',
    withdrawal: 'unknown',
    subAccounts: 'unknown',
  };
  const api = connection.api;
  const result = (extra: Partial<ConnectionCheck> = {}): ConnectionCheck => ({
    profileId,
    checkedAt: Date.now(),
    ok: checks.every((c) => c.outcome === 'ok' || c.outcome === 'skipped' || c.outcome === 'warning'),
    checks,
    permissions,
    ipWhitelist: [],
    deep,
    ...extra,
  });

  // 1. Reachability and clock, with the public time endpoint.
  let offsetMs: number | undefined;
  try {
    offsetMs = await connection.client.syncClock();
    checks.push({
      name: 'reachability',
      outcome: 'ok',
      detail: `The platform answered (round trip ${connection.clock.last?.rttMs ?? 0} ms).`,
    });
    const large = Math.abs(offsetMs) >= LARGE_OFFSET_MS;
    checks.push({
      name: 'clock',
      outcome: large ? 'warning' : 'ok',
      detail: `This computer's clock is ${Math.abs(offsetMs / 1000).toFixed(1)} s ${offsetMs >= 0 ? 'behind' : 'ahead of'} the platform; the app corrects signed requests for it.`,
      ...(large ? { advice: 'Set this computer’s clock automatically (NTP); other apps may be affected.' } : {}),
    });
  } catch (error) {
    checks.push({
      name: 'reachability',
      outcome: 'failed',
      ...failure(error),
      ...(kind === 'futures_alt'
        ? { advice: 'The futures alternative entry serves futures operations only; check its address.' }
        : {}),
    });
    for (const name of ['clock', 'signature', 'ipWhitelist', 'permissions', 'environment'] as const) {
      checks.push({ name, outcome: 'skipped', detail: 'Skipped: the platform could not be reached.' });
    }
    return result();
  }

  if (!connection.hasKey) {
    for (const name of ['signature', 'ipWhitelist', 'permissions', 'environment'] as const) {
      checks.push({
        name,
        outcome: 'skipped',
        detail: 'No API key is stored for this profile.',
        advice: 'Add the key in Settings → Profiles.',
      });
    }
    return result({ clockOffsetMs: offsetMs });
  }

  // 2. Signature, key environment and IP whitelist, with the account detail.
  let userId: number | undefined;
  let ipWhitelist: string[] = [];
  try {
    // GET /account/detail tells the user id and whitelist; where an entry lacks it, the fee
    // endpoint (also signed, carries user_id) still proves the signature.
    const detail = await api.account.detail().catch(async (error: unknown) => {
      if (!(error instanceof ApiError) || error.label !== 'NOT_FOUND') throw error;
      const fee = await api.wallet.fee();
      return { user_id: fee.user_id ?? 0, ip_whitelist: [] as string[], key: undefined };
    });
    userId = detail.user_id;
    ipWhitelist = detail.ip_whitelist;
    checks.push({
      name: 'signature',
      outcome: 'ok',
      detail: `Signed requests are accepted (account ${detail.user_id}).`,
    });
    checks.push({
      name: 'environment',
      outcome: 'ok',
      detail: `The key belongs to this ${kind === 'live' ? 'live' : kind === 'testnet' ? 'test' : kind === 'sandbox' ? 'sandbox' : kind === 'custom' ? 'custom endpoint’s' : 'futures'} environment${detail.key?.mode === 2 ? ' (legacy unified key)' : ''}.`,
    });
    // No whitelist is a warning (with the advice), never a green ok beside advice to bind the key.
    checks.push({
      name: 'ipWhitelist',
      outcome: ipWhitelist.length ? 'ok' : 'warning',
      detail: ipWhitelist.length
        ? `This computer is allowed by the key's IP whitelist (${ipWhitelist.length} address${ipWhitelist.length > 1 ? 'es' : ''}).`
        : 'The key has no IP whitelist (any address may use it).',
      ...(ipWhitelist.length === 0
        ? {
            advice:
              'Consider binding the key to your IP addresses: keys without a whitelist are easier to abuse (and on the live platform may expire after 90 days).',
          }
        : {}),
    });
  } catch (error) {
    const label = error instanceof ApiError ? error.label : '';
    const info = failure(error);
    if (label === 'IP_FORBIDDEN' || (label === 'FORBIDDEN' && /ip|whitelist/i.test(info.detail))) {
      checks.push({ name: 'signature', outcome: 'ok', detail: 'The signature is valid.' });
      checks.push({ name: 'ipWhitelist', outcome: 'failed', ...info });
    } else if (label === 'INVALID_KEY') {
      checks.push({ name: 'signature', outcome: 'skipped', detail: 'Skipped: the platform does not know the key.' });
      checks.push({
        name: 'environment',
        outcome: 'failed',
        ...info,
        advice: `The key is unknown at ${connection.client.baseUrl.host}: it may be a ${kind === 'live' ? 'testnet' : 'live'} key, an old APIv2 key, or deleted. ${helpForLabel('INVALID_KEY').advice}`,
      });
    } else {
      checks.push({ name: 'signature', outcome: 'failed', ...info });
    }
    for (const name of ['ipWhitelist', 'permissions', 'environment'] as const) {
      if (!checks.some((c) => c.name === name))
        checks.push({ name, outcome: 'skipped', detail: 'Skipped: the key was not accepted.' });
    }
    return result({ clockOffsetMs: offsetMs });
  }

  // 3. Permissions per group: a read; in the deep check only, then a write the platform must refuse
  //    on its input.
  const probe = async (read: () => Promise<unknown>, write: () => Promise<unknown>): Promise<Level> => {
    try {
      await read();
    } catch (error) {
      // Any refusal of a plain read (FORBIDDEN, READ_ONLY, …) means no access to the group.
      return error instanceof ApiError && error.kind === 'platform' ? 'none' : 'unknown';
    }
    if (!deep) return 'read';
    try {
      await write();
      return 'read-write'; // should not happen: the probe is invalid on purpose
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'platform') return 'unknown';
      if (error.label === 'READ_ONLY' || error.label === 'FORBIDDEN') return 'read-only';
      return INPUT_REFUSAL.test(error.label) ? 'read-write' : 'unknown';
    }
  };
  // The writes below are exactly DEEP_CHECK_PROBES (what the screen announces), in that order.
  const probeOpt = { purpose: 'deep connection check: permission probe, refused by design' };
  // The reads are what the screens ask for as the profile connects (the balances, the withdrawal
  // rules): their answers serve those for a few seconds instead of being read again, and a screen's
  // answer that came first serves the probe.
  const kept = { keepAnswerMs: PROBE_ANSWER_KEPT_MS, reuseAnswerWithinMs: PROBE_ANSWER_KEPT_MS };
  permissions.spot = await probe(
    () => api.spot.accounts(undefined, kept),
    () => api.spot.cancelOrder('0', { currency_pair: 'BTC_USDT' }, probeOpt),
  );
  permissions.wallet = await probe(
    () => api.wallet.withdrawStatus(undefined, kept),
    () =>
      api.wallet.transfer(
        { currency: 'USDT', from: 'spot', to: 'margin', amount: '0', currency_pair: 'BTC_USDT' },
        probeOpt,
      ),
  );
  permissions.withdrawal = await probe(
    () => api.wallet.withdrawals({ limit: 1 }),
    () => api.withdrawals.create({ currency: 'USDT', chain: 'TRX', address: 'probe', amount: '0' }, probeOpt),
  );
  permissions.subAccounts = await probe(
    () => api.subAccounts.list(),
    () => api.subAccounts.lock(0, probeOpt),
  );
  checks.push(deep ? deepPermissions(permissions) : readPermissions(permissions));
  return result({ clockOffsetMs: offsetMs, ipWhitelist, ...(userId !== undefined ? { userId } : {}) });
};

/**
 * How long a read probe's answer waits for the screen's identical read (api/client.ts,
 * keepAnswerMs; served once): the window opening on a busy machine reads the balances a few seconds
 * after the check. A screen's answer this recent serves the probe (reuseAnswerWithinMs).
 */
const PROBE_ANSWER_KEPT_MS = 10_000;

const INPUT_REFUSAL =
  /^(INVALID_|MISSING_|BAD_REQUEST|BALANCE_NOT_ENOUGH|ORDER_NOT_FOUND|SUB_ACCOUNT_NOT_FOUND|NOT_FOUND|ADDRESS_NOT_USED|WITHDRAWAL_OVER_LIMIT)/;

const GROUP_TEXT: Record<Group, string> = {
  spot: 'spot',
  wallet: 'wallet',
  withdrawal: 'withdrawals',
  subAccounts: 'sub-accounts',
};

/** The check on connect: what the key may read; writing is not tested. */
const readPermissions = (permissions: Record<Group, Level>): Check => {
  const missing = (Object.entries(permissions) as [Group, Level][]).filter(([, level]) => level !== 'read');
  const notTested = `Whether it may write was not tested: the deep check does, by sending ${DEEP_CHECK_PROBES.length} writes the platform must refuse.`;
  return {
    name: 'permissions',
    outcome: missing.length === 0 ? 'ok' : 'warning',
    detail:
      missing.length === 0
        ? `The key may read spot, wallet, withdrawals and sub-accounts. ${notTested}`
        : `Cannot read: ${missing.map(([g, l]) => `${GROUP_TEXT[g]} (${l})`).join(', ')}. ${notTested}`,
    ...(missing.length
      ? {
          advice:
            'Screens that need a missing permission will say so; change the key’s permissions on the platform to use them.',
        }
      : {}),
  };
};

/** The deep check: read-write, read-only or none per group. */
const deepPermissions = (permissions: Record<Group, Level>): Check => {
  const missing = (Object.entries(permissions) as [Group, Level][]).filter(([, level]) => level !== 'read-write');
  return {
    name: 'permissions',
    outcome: missing.length === 0 ? 'ok' : 'warning',
    detail:
      missing.length === 0
        ? 'The key may read and write spot, wallet, withdrawals and sub-accounts.'
        : `Limited: ${missing.map(([g, l]) => `${GROUP_TEXT[g]} ${l}`).join(', ')}.`,
    ...(missing.length
      ? {
          advice:
            'Screens that need a missing permission will say so; change the key’s permissions on the platform to use them.',
        }
      : {}),
  };
};
