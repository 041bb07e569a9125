/**
 * What makes the audit log trustworthy beyond its own file: the desk's secrets in the OS keychain
 * (the audit chain's HMAC key, the key that hashes unknown sign-in names, the Ed25519 key that
 * signs exports) and the chain's head (count, number and hash of the last entry), checked against
 * the journal at every start. Everything here is in the keychain, never in the data folder, so
 * someone who can edit the journal's SQLite file cannot make a truncated or rewritten log pass.
 *
 * At start (`openAuditTrust`):
 * - a new desk gets its secrets;
 * - a journal from before the HMAC chain whose old SHA-256 chain is intact is re-keyed once, and
 *   the log says so (`audit.chainRekeyed`);
 * - otherwise the chain is verified under the key and compared with the head: a broken link, fewer
 *   entries than the head counted, or a last-known entry with another hash is a failure;
 * - a key missing from the keychain (the data folder was moved, the system reinstalled) or a
 *   keychain that does not answer is a failure too: the log cannot be checked.
 * A failure does not stop the app: it is recorded (`audit.checkFailed`), shown on every screen
 * (`activity.auditIntegrity`, event `activity.auditIntegrityChanged`) until an administrator
 * acknowledges it (`activity.acknowledgeAuditFailure`: audited, after which the chain is re-keyed
 * over the log as it stands, so the failure and the acknowledgement stay in it for good).
 *
 * The head is written to the keychain after every entry (coalesced; `flush` on close). A core
 * that stops between an entry and its head write leaves the head behind by those entries: the
 * check accepts a log longer than its head as long as the head's entry is still there, unchanged.
 */
import { createHash, createHmac, generateKeyPairSync, hkdfSync, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { AuditIntegrity } from '../../shared/contract/activity';
import { DeskFailure } from '../errors';
import { createAuditLog, resignChain, verifyLegacyChain } from '../journal/audit';
import { keyFingerprint, type SigningKey, signAuditExport, signingKeyFrom } from '../journal/auditExport';
import { type Db, statement } from '../journal/db';
import type { AuditHead, AuditLog } from '../journal/types';
import type { KeyStore } from '../keychain/keyStore';

export interface AuditTrustOptions {
  readonly db: Db;
  readonly keyStore: KeyStore;
  readonly dataDir: string;
  readonly activeProfileId: () => string;
  readonly operatorName: () => string;
  readonly now?: () => number;
  readonly log?: (line: string) => void;
}

export interface AuditTrust {
  /** The audit log, keyed by the desk's chain key. */
  readonly audit: AuditLog;
  /** The keyed hash (16 hex digits) an unknown sign-in name is stored and audited as (never the name typed). */
  nameHash(name: string): string;
  /** The state of the last check (at start, or `check`). */
  state(): AuditIntegrity;
  /** Checks the chain and the keychain's head again now (Activity → Audit log, "Verify integrity"). */
  check(): Promise<AuditIntegrity>;
  /** An administrator has looked at the failure: audited, then the chain is re-keyed as it stands. */
  acknowledge(note: string | undefined): Promise<AuditIntegrity>;
  /** The export's CSV with the desk's signature record. */
  signExport(csv: string): string;
  /** Called with every change of the state (the frame's banner follows it). */
  onChange(listener: (state: AuditIntegrity) => void): () => void;
  /** Waits for the last head write (before the journal closes). */
  flush(): Promise<void>;
}

/**
 * The keychain entries of this data folder. Named after the folder's real path, not after anything
 * in the journal: someone editing the journal cannot point the app at other entries, or make it
 * believe it has none (which would let a forged old-style chain pass as one to migrate).
 */
const entryNames = (dataDir: string) => {
  let path = dataDir;
  try {
    path = realpathSync(dataDir);
  } catch {
    // not created yet: the path as given
  }
  const id = createHash('sha256').update(path).digest('hex').slice(0, 24);
  return { secret: `desk-secret:${id}`, head: `audit-head:${id}`, signing: `audit-signing:${id}` };
};

/** The stored forms, as KeyStore entries (`key` names what the entry is; `secret` holds it). */
const SECRET_KIND = 'treasury-desk-secret-v1';
const HEAD_KIND = 'treasury-desk-audit-head-v1';

const derive = (secret: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `treasury-desk ${purpose}`, 32));

const newSigningKey = (): SigningKey =>
  signingKeyFrom(generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'));

/** A failed check, kept until an administrator acknowledges it. */
interface Failure {
  readonly problem: string;
  readonly brokenAtSeq?: number;
}

/** What the keychain keeps of the log: its head, and a failure not acknowledged yet. */
interface Anchor extends AuditHead {
  readonly failure?: Failure;
}

const readAnchor = async (keyStore: KeyStore, entry: string): Promise<Anchor | undefined> => {
  const stored = await keyStore.get(entry);
  if (stored?.key !== HEAD_KIND) return undefined;
  try {
    const anchor = JSON.parse(stored.secret) as Partial<Anchor>;
    if (typeof anchor.count === 'number' && typeof anchor.seq === 'number' && typeof anchor.hash === 'string') {
      const failure = anchor.failure;
      return {
        count: anchor.count,
        seq: anchor.seq,
        hash: anchor.hash,
        ...(failure && typeof failure.problem === 'string' ? { failure } : {}),
      };
    }
  } catch {
    // not ours
  }
  return undefined;
};

const PROBLEMS = {
  keychain: (reason: string) =>
    `The OS keychain does not answer (${reason}): the audit log cannot be checked, and what is recorded now cannot be protected against later edits.`,
  keyMissing:
    'The audit log’s key is not in this computer’s keychain (the data folder was moved or copied, or the system was reinstalled): the entries written so far cannot be checked.',
  headMissing: 'The keychain holds no record of the audit log’s last entry: entries at its end may have been deleted.',
  legacyBroken: (seq: number) =>
    `The audit log written before this version does not check out at entry ${seq}: it was changed before the upgrade.`,
  broken: (seq: number) => `Entry ${seq} of the audit log was changed after it was written (its hash does not match).`,
  truncated: (head: AuditHead, count: number) =>
    `The audit log holds ${count} ${count === 1 ? 'entry' : 'entries'}, but it held ${head.count} (up to entry ${head.seq}): entries at its end were deleted.`,
  rewritten: (head: AuditHead) =>
    `Entry ${head.seq} is not the one the audit log held (its hash differs from the one the keychain kept): the log was rewritten.`,
} as const;

export const openAuditTrust = async (options: AuditTrustOptions): Promise<AuditTrust> => {
  const { db, keyStore } = options;
  const now = options.now ?? Date.now;
  const names = entryNames(options.dataDir);
  const listeners = new Set<(state: AuditIntegrity) => void>();
  const rowCount = (): number => (statement(db, 'SELECT COUNT(*) AS n FROM audit').get() as { n: number }).n;
  const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

  // The desk's secret: one random value, every key derived from it for its own purpose.
  let keychainProblem: string | undefined;
  let secret: Buffer | undefined;
  let anchor: Anchor | undefined;
  let signingKey: SigningKey | undefined;
  try {
    const stored = await keyStore.get(names.secret);
    if (stored?.key === SECRET_KIND) secret = Buffer.from(stored.secret, 'base64');
    anchor = await readAnchor(keyStore, names.head);
    const signing = await keyStore.get(names.signing);
    if (signing) signingKey = signingKeyFrom(signing.secret);
  } catch (error) {
    keychainProblem = reason(error);
  }

  const isNew = secret === undefined;
  secret ??= randomBytes(32);
  const keys = { chain: derive(secret, 'audit chain'), names: derive(secret, 'sign-in names') };
  const signer = signingKey ?? newSigningKey();
  if (keychainProblem === undefined) {
    try {
      if (isNew) await keyStore.set(names.secret, { key: SECRET_KIND, secret: secret.toString('base64') });
      if (signingKey === undefined) {
        await keyStore.set(names.signing, {
          key: signer.publicKeyDer.toString('base64'),
          secret: signer.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        });
      }
    } catch (error) {
      keychainProblem = reason(error);
    }
  }

  /** The failure found and not acknowledged yet: kept in the keychain with the head, so a restart does not clear it. */
  let pending: Failure | undefined = anchor?.failure;
  // The anchor, written after every entry; one write at a time, the latest wins.
  let head: AuditHead | undefined;
  let writing: Promise<void> | undefined;
  let writeProblemLogged = false;
  const writeAnchor = (next: AuditHead): Promise<void> => {
    head = next;
    if (keychainProblem !== undefined) return Promise.resolve();
    writing ??= (async () => {
      while (head !== undefined) {
        const record: Anchor = { ...head, ...(pending ? { failure: pending } : {}) };
        head = undefined;
        try {
          await keyStore.set(names.head, { key: HEAD_KIND, secret: JSON.stringify(record) });
        } catch (error) {
          if (!writeProblemLogged) options.log?.(`audit: the keychain did not keep the log's head (${reason(error)})`);
          writeProblemLogged = true;
        }
      }
      writing = undefined;
    })();
    return writing;
  };

  const audit = createAuditLog(db, {
    key: keys.chain,
    activeProfileId: options.activeProfileId,
    operatorName: options.operatorName,
    now,
    onAppend: (appended) => void writeAnchor(appended),
  });
  const currentHead = (): AuditHead => {
    const chain = audit.verify();
    return chain.ok ? chain.head : { count: rowCount(), seq: 0, hash: '' };
  };

  const fingerprint = keyFingerprint(signer.publicKeyDer);
  const passed = (entries: number): AuditIntegrity => ({
    ok: true,
    checkedAt: now(),
    entries,
    signingKey: fingerprint,
  });
  const failedWith = (failure: Failure): AuditIntegrity => ({
    ok: false,
    checkedAt: now(),
    problem: failure.problem,
    ...(failure.brokenAtSeq !== undefined ? { brokenAtSeq: failure.brokenAtSeq } : {}),
    signingKey: fingerprint,
  });

  /** The chain under the key, then the head the keychain kept (undefined: none kept). */
  const verdict = (kept: AuditHead | undefined): Failure | { entries: number } => {
    const chain = audit.verify();
    if (!chain.ok) return { problem: PROBLEMS.broken(chain.brokenAtSeq), brokenAtSeq: chain.brokenAtSeq };
    if (kept === undefined) return { problem: PROBLEMS.headMissing };
    if (chain.head.count < kept.count) return { problem: PROBLEMS.truncated(kept, chain.head.count) };
    if (kept.seq > 0) {
      const row = statement<[number], { hash: string }>(db, 'SELECT hash FROM audit WHERE seq = ?').get(kept.seq);
      if (row === undefined) return { problem: PROBLEMS.truncated(kept, chain.head.count) };
      if (row.hash !== kept.hash) return { problem: PROBLEMS.rewritten(kept), brokenAtSeq: kept.seq };
    }
    return { entries: chain.head.count };
  };

  /**
   * The state after a check: a failure found now is recorded in the log (unless it is the one
   * already pending) and kept in the keychain; a check that passes leaves a pending failure as it is.
   */
  const settle = (found: Failure | { entries: number }, operator?: string): AuditIntegrity => {
    if ('problem' in found) {
      if (found.problem !== pending?.problem) {
        pending = found;
        audit.record({
          action: 'audit.checkFailed',
          params: { ...found },
          outcome: 'error',
          label: 'AUDIT_CHECK_FAILED',
          ...(operator !== undefined ? { operator } : {}),
        });
        options.log?.(`audit: ${found.problem}`);
      }
      return failedWith(found);
    }
    return pending ? failedWith(pending) : passed(found.entries);
  };

  // The check at start (nobody is signed in yet: the app itself records what it finds).
  let state: AuditIntegrity;
  if (keychainProblem !== undefined) {
    state = settle({ problem: PROBLEMS.keychain(keychainProblem) }, '');
  } else if ((isNew || anchor === undefined) && rowCount() === 0) {
    await writeAnchor({ count: 0, seq: 0, hash: '' });
    state = passed(0);
  } else if (isNew || anchor === undefined) {
    // No key (or no head) yet for a journal with entries: a journal from before the HMAC chain
    // (or one whose upgrade stopped half-way) is re-keyed if its old chain is intact.
    const legacy = verifyLegacyChain(db);
    if (legacy.ok) {
      await writeAnchor(resignChain(db, keys.chain));
      audit.record({
        action: 'audit.chainRekeyed',
        params: {
          why: 'The audit log is now an HMAC chain keyed by a secret in the OS keychain (before: plain SHA-256).',
          entries: legacy.entries,
          previousLastHash: legacy.head.hash,
        },
        outcome: 'ok',
        operator: '',
      });
      state = passed(rowCount());
    } else {
      state = settle(isNew ? { problem: PROBLEMS.keyMissing } : verdict(undefined), '');
    }
  } else {
    state = settle(verdict(anchor), '');
  }
  // Whatever the check found, the keychain now keeps this log's head (and a pending failure).
  await writeAnchor(currentHead());

  const setState = (next: AuditIntegrity): AuditIntegrity => {
    state = next;
    for (const listener of listeners) listener(next);
    return next;
  };

  return {
    audit,
    nameHash: (name) => createHmac('sha256', keys.names).update(name).digest('hex').slice(0, 16),
    state: () => state,
    check: async () => {
      if (keychainProblem !== undefined) return state;
      await writing;
      let kept: Anchor | undefined;
      try {
        kept = await readAnchor(keyStore, names.head);
      } catch (error) {
        return setState(failedWith({ problem: PROBLEMS.keychain(reason(error)) }));
      }
      return setState(settle(verdict(kept)));
    },
    acknowledge: async (note) => {
      if (state.ok) return state;
      if (keychainProblem !== undefined) {
        throw DeskFailure.precondition(
          'The OS keychain does not answer, so the audit log cannot be protected again yet. Nothing was changed.',
          'Unlock or repair the keychain, restart the app, then acknowledge.',
        );
      }
      audit.record({
        action: 'audit.failureAcknowledged',
        params: { problem: state.problem, ...(note ? { note } : {}) },
        outcome: 'ok',
      });
      pending = undefined;
      const resigned = resignChain(db, keys.chain);
      await writeAnchor(resigned);
      return setState(passed(resigned.count));
    },
    signExport: (csv) => signAuditExport(csv, signer),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: async () => {
      await writing;
    },
  };
};
