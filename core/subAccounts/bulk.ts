/**
 * Sub-accounts in bulk (docs/bulk.md, "Sub-accounts and keys in bulk"): create several from a CSV
 * (`login_name,remark,email`), and the health of every sub-account key (no IP whitelist, close to
 * or past the platform's 90-day expiry of unbound keys, unused for N days).
 */
import Papa from 'papaparse';
import type { KeyHealthRow } from '../../shared/contract/bulk';
import { BATCH_MAX_BYTES, BATCH_MAX_ROWS, BATCH_TOO_LARGE_MESSAGE } from '../../shared/contract/bulk';
import { keyExpiry } from '../../shared/contract/keys';
import { loginNameProblem } from '../../shared/contract/subAccounts';
import type { PlatformApi } from '../api/platform';
import { subAccountFacts } from '../batches/facts';
import { isConvertibleToIpcError } from '../errors';

const DAY_MS = 86_400_000;

/** One sub-account to create, as a bulk file gives it. */
export interface NewSubAccount {
  readonly row: number;
  readonly loginName: string;
  readonly remark?: string;
  readonly email?: string;
}

/** The rows of a bulk sub-account file, each checked; `problems` of the file as a whole. */
export const readSubAccountFile = (
  text: string,
): {
  rows: NewSubAccount[];
  invalid: { row: number; loginName: string; state: 'invalid'; message: string }[];
  fileProblems: { row?: number; message: string }[];
} => {
  if (new TextEncoder().encode(text).length > BATCH_MAX_BYTES) {
    return { rows: [], invalid: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
  }
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('login_name')) {
    return {
      rows: [],
      invalid: [],
      fileProblems: [{ row: 1, message: 'Missing column login_name (columns: login_name, remark, email).' }],
    };
  }
  if (parsed.data.length > BATCH_MAX_ROWS)
    return { rows: [], invalid: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
  const rows: NewSubAccount[] = [];
  const invalid: { row: number; loginName: string; state: 'invalid'; message: string }[] = [];
  const seen = new Set<string>();
  for (const [i, r] of parsed.data.entries()) {
    const loginName = (r.login_name ?? '').trim();
    const problem =
      loginNameProblem(loginName) ?? (seen.has(loginName) ? 'This login name appears twice in the file.' : undefined);
    seen.add(loginName);
    if (problem) {
      invalid.push({ row: i + 2, loginName, state: 'invalid', message: problem });
      continue;
    }
    const remark = (r.remark ?? '').trim();
    const email = (r.email ?? '').trim();
    rows.push({ row: i + 2, loginName, ...(remark ? { remark } : {}), ...(email ? { email } : {}) });
  }
  return { rows, invalid, fileProblems: [] };
};

/** Creates the sub-accounts one by one; a result per row (created with its uid, or why not). */
export const createSubAccounts = async (api: PlatformApi, rows: readonly NewSubAccount[]) => {
  const results = [];
  for (const r of rows) {
    try {
      const created = await api.subAccounts.create({
        login_name: r.loginName,
        ...(r.remark ? { remark: r.remark } : {}),
        ...(r.email ? { email: r.email } : {}),
      });
      results.push({ row: r.row, loginName: r.loginName, state: 'created' as const, userId: Number(created.user_id) });
    } catch (error) {
      const detail = isConvertibleToIpcError(error) ? error.toIpcError() : undefined;
      results.push({
        row: r.row,
        loginName: r.loginName,
        state: 'failed' as const,
        message: `${detail?.label ? `${detail.label}: ` : ''}${error instanceof Error ? error.message : 'failed'}`,
      });
    }
  }
  return results;
};

/** Freezes or unfreezes sub-accounts one by one; a result per account. */
export const setFrozen = async (api: PlatformApi, userIds: readonly number[], frozen: boolean) => {
  const results = [];
  for (const userId of [...new Set(userIds)]) {
    try {
      if (frozen) await api.subAccounts.lock(userId);
      else await api.subAccounts.unlock(userId);
      results.push({ userId, ok: true });
    } catch (error) {
      results.push({ userId, ok: false, message: error instanceof Error ? error.message : 'failed' });
    }
  }
  return results;
};

/** Every key of the selected (or all) sub-accounts, with what is wrong with it. */
export const keyHealth = async (api: PlatformApi, userIds: readonly number[] | undefined, unusedDays: number) => {
  const subs = await subAccountFacts(api);
  const now = Date.now();
  const rows: KeyHealthRow[] = [];
  for (const userId of userIds ?? [...subs.keys()]) {
    const keys = await api.subAccounts.listKeys(userId);
    for (const k of keys) {
      const created = k.created_at === undefined ? undefined : Math.floor(k.created_at);
      const last = k.last_access === undefined || k.last_access <= 0 ? undefined : Math.floor(k.last_access);
      const expiry = keyExpiry(k.ip_whitelist, created, now);
      const issues: KeyHealthRow['issues'] = [];
      if (!expiry.ipBound) issues.push('noIpWhitelist');
      if (expiry.level === 'warning') issues.push('nearExpiry');
      if (expiry.level === 'expired') issues.push('expired');
      const since = last ?? created;
      if (since !== undefined && now - since * 1000 > unusedDays * DAY_MS) issues.push('unused');
      rows.push({
        userId,
        loginName: subs.get(userId)?.loginName ?? String(userId),
        key: k.key,
        ...(k.name ? { name: k.name } : {}),
        ipWhitelist: k.ip_whitelist,
        ...(created !== undefined ? { createdAt: created * 1000 } : {}),
        ...(last !== undefined ? { lastAccess: last * 1000 } : {}),
        ...(expiry.daysLeft !== undefined ? { expiresInDays: expiry.daysLeft } : {}),
        issues,
      });
    }
  }
  return { keys: rows, checkedAt: now };
};
