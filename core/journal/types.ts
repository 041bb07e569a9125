/** The journal's other services: the audit log, balance snapshots and settings. */

export interface AuditInput {
  /** What was done, e.g. "POST /withdrawals", "profiles.setKey". */
  readonly action: string;
  /** The account acted upon (main user id, sub-account uid) when known. */
  readonly account?: string;
  /** Parameters without secrets (the caller redacts; the audit log redacts known secret fields again). */
  readonly params?: unknown;
  readonly outcome: 'ok' | 'error' | 'unknown';
  /** Platform label (or app error code) when the outcome is not ok. */
  readonly label?: string;
  readonly requestId?: string;
  /** Defaults to the active profile. */
  readonly profileId?: string;
  /** Who did it; defaults to the operator signed in (core/operators/). */
  readonly operator?: string;
}

export interface AuditEntry {
  readonly seq: number;
  /** Unix ms. */
  readonly at: number;
  readonly profileId: string;
  readonly action: string;
  readonly account: string;
  /** JSON text of the parameters (secrets redacted). */
  readonly params: string;
  readonly outcome: 'ok' | 'error' | 'unknown';
  readonly label: string;
  readonly requestId: string;
  /** The operator's name ('' for entries written before operators existed, or by the app itself at start). */
  readonly operator: string;
  /**
   * HMAC-SHA256 (keyed by a secret in the OS keychain) over the previous entry's hash, this entry's
   * number and its fields: editing any row breaks the chain (journal/audit.ts).
   */
  readonly hash: string;
}

/** The last entry of the log as the OS keychain keeps it: truncation and rewrites show against it. */
export interface AuditHead {
  /** How many entries the log holds. */
  readonly count: number;
  /** The last entry's number (0: none). */
  readonly seq: number;
  /** The last entry's hash (the genesis value when there is none). */
  readonly hash: string;
}

/** A walk over the chain: intact (with its head), or the first entry whose hash does not match. */
export type AuditVerdict =
  | { readonly ok: true; readonly entries: number; readonly head: AuditHead }
  | { readonly ok: false; readonly brokenAtSeq: number };

export interface AuditFilter {
  readonly profileId?: string;
  readonly action?: string;
  readonly outcome?: 'ok' | 'error' | 'unknown';
  /** Free text matched against action, account, params, label and request id. */
  readonly text?: string;
  readonly from?: number;
  readonly to?: number;
  readonly limit?: number;
  /** Entries with seq below this (paging backwards, newest first). */
  readonly beforeSeq?: number;
}

export interface AuditLog {
  /** Appends an entry (append-only: there is no update or delete). */
  record(entry: AuditInput): AuditEntry;
  /** Newest first. */
  list(filter?: AuditFilter): AuditEntry[];
  /** Recomputes the chain; reports the first entry whose hash does not match. */
  verify(): AuditVerdict;
  /** RFC 4180 CSV (UTF-8, CRLF), times in ISO 8601 UTC, oldest first. */
  exportCsv(filter?: AuditFilter): string;
}

export interface BalanceSnapshot {
  /** Unix ms. */
  readonly at: number;
  readonly profileId: string;
  /** Valuation currency of `total`, e.g. "USDT". */
  readonly currency: string;
  /** Decimal string. */
  readonly total: string;
  /** Per account type (spot, margin, futures, …) decimal strings. */
  readonly byAccount: Readonly<Record<string, string>>;
}

export interface BalanceSnapshots {
  /** Stores a snapshot (at most one per minute per profile is kept; later ones in the same minute replace it). */
  add(snapshot: Omit<BalanceSnapshot, 'profileId' | 'at'> & { at?: number; profileId?: string }): void;
  /** Oldest first; defaults to the active profile. */
  list(filter?: { profileId?: string; from?: number; to?: number }): BalanceSnapshot[];
}

/** App settings that are not secrets: a small typed key-value store in the journal database. */
export interface Settings {
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
}
