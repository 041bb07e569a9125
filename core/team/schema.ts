/**
 * The team database's schema: versioned migrations in this one place (like the SQLite journal's
 * `journal/db.ts`). `migrate` applies those a database lacks in one transaction, holding an advisory
 * lock, so two desks starting at once never both migrate: the second waits, then finds nothing to do.
 * A database migrated by a newer version of the app is refused, not written to.
 *
 * What is signed is stored as signed (`body` = the canonical text, `signature`, the signer); other
 * columns are copies for queries and locks. No desk trusts a copy: every desk verifies the signed
 * bodies (controlChain.ts, verify.ts) and refuses a row whose copies disagree with its body.
 */
import type { TeamDatabase, TeamSql } from './database';
import { teamRefused } from './errors';

/** The advisory lock that serialises migrations (any constant no other lock uses). */
const MIGRATION_LOCK = 0x7d_7e_a0_01;

/** Append, never edit: a team database may stand at any version. */
const MIGRATIONS: readonly string[] = [
  // 1. The team: its control chain (operators, roles, keys, policies), profiles' metadata, desks, the
  //    movement and batch journal with request keys and leases, the approval queue, the audit chain,
  //    and the change log the live subscriber reads.
  `
CREATE TABLE team (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  name text NOT NULL,
  -- The genesis link's hash: what every desk pins when it joins (docs/team.md, "Joining").
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Control changes as prepared (signed by their preparer), pending until applied, rejected or expired.
CREATE TABLE control_changes (
  id text PRIMARY KEY,
  kind text NOT NULL,
  -- For queries: the operator or profile the change is about.
  subject text,
  body text NOT NULL,
  body_hash text NOT NULL UNIQUE,
  prepared_by text NOT NULL,
  signature text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'applied', 'rejected', 'expired')),
  prepared_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  -- The rejection (a signed decision), when rejected.
  rejection text,
  rejected_by text,
  rejection_signature text
);
CREATE INDEX control_changes_pending ON control_changes (state, prepared_at);

-- The control chain: each applied change is a link (seq, previous link's hash) signed by the
-- administrator who approved it. Seq 0 is the genesis (the team and its first administrator).
CREATE TABLE control_chain (
  seq bigint PRIMARY KEY CHECK (seq >= 0),
  change_id text NOT NULL UNIQUE REFERENCES control_changes (id),
  body text NOT NULL,
  body_hash text NOT NULL UNIQUE,
  applied_by text NOT NULL,
  signature text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- Profiles' metadata (never a key or a secret: those stay in each desk's keychain).
CREATE TABLE profiles (
  id text PRIMARY KEY,
  kind text NOT NULL,
  name text NOT NULL,
  base_url text NOT NULL,
  key_mask text,
  user_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The desks of the team, and which profiles' keys each holds (only those desks claim its movements).
CREATE TABLE desks (
  id text PRIMARY KEY,
  name text NOT NULL,
  joined_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE desk_profiles (
  desk_id text NOT NULL REFERENCES desks (id),
  profile_id text NOT NULL,
  PRIMARY KEY (desk_id, profile_id)
);

CREATE TABLE batches (
  id text PRIMARY KEY,
  profile_id text NOT NULL,
  name text NOT NULL,
  body text NOT NULL,
  body_hash text NOT NULL UNIQUE,
  maker_id text NOT NULL,
  signature text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Fencing tokens: every claim of a movement takes the next one, so a later holder always has a
-- larger token than any earlier one, and a write with an older token is refused.
CREATE SEQUENCE fencing_tokens;

-- The movement journal. created_at is the database's clock: the firm-wide rolling limits and the
-- leases are measured on one clock, whatever the desks' clocks say.
CREATE TABLE movements (
  id text PRIMARY KEY,
  profile_id text NOT NULL,
  kind text NOT NULL,
  request_key text NOT NULL UNIQUE,
  client_id text NOT NULL UNIQUE,
  currency text NOT NULL,
  amount text NOT NULL,
  usdt_value text,
  batch_id text REFERENCES batches (id),
  row_no integer,
  approvals_required integer NOT NULL,
  body text NOT NULL,
  body_hash text NOT NULL UNIQUE,
  maker_id text NOT NULL,
  signature text NOT NULL,
  state text NOT NULL CHECK (state IN
    ('awaiting_approval', 'ready', 'claimed', 'sent', 'done', 'failed', 'rejected', 'expired', 'cancelled', 'blocked')),
  lease_holder text,
  lease_token bigint,
  lease_expires_at timestamptz,
  sent_token bigint,
  sent_by text,
  sent_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  platform_id text,
  label text,
  message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX movements_claimable ON movements (profile_id, state, lease_expires_at);
CREATE INDEX movements_window ON movements (profile_id, created_at);
CREATE INDEX movements_batch ON movements (batch_id, row_no);

-- The approval queue's decisions: signed approvals and rejections of a movement or a whole batch.
CREATE TABLE decisions (
  subject_kind text NOT NULL CHECK (subject_kind IN ('movement', 'batch')),
  subject_id text NOT NULL,
  operator_id text NOT NULL,
  decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
  body text NOT NULL,
  signature text NOT NULL,
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject_kind, subject_id, operator_id)
);

-- The team's audit chain: each entry names the previous one's hash; operators' entries are signed.
CREATE TABLE audit (
  seq bigint PRIMARY KEY CHECK (seq >= 0),
  body text NOT NULL,
  hash text NOT NULL UNIQUE,
  operator_id text,
  signature text,
  at timestamptz NOT NULL DEFAULT now()
);

-- The change log: one row per change, in commit order (changes.ts), announced by NOTIFY and read
-- back by a subscriber that reconnects.
CREATE TABLE changes (
  seq bigserial PRIMARY KEY,
  kind text NOT NULL,
  subject text NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
`,
  // 2. Enrolment requests: an operator's new public key, self-signed, made on their own desk, waiting
  //    for an administrator to prepare the enrolment control change (enrolment.ts); each profile's
  //    sending desk (senders.ts).
  `
CREATE TABLE enrolment_requests (
  operator_id text PRIMARY KEY,
  name text NOT NULL,
  public_key text NOT NULL UNIQUE,
  desk_id text NOT NULL,
  body text NOT NULL,
  signature text NOT NULL,
  -- The enrolment control change prepared from it (null while it waits for an administrator).
  change_id text REFERENCES control_changes (id),
  requested_at timestamptz NOT NULL DEFAULT now()
);

-- Each profile's sender: the one desk (of those that hold the profile's key) that claims and sends
-- its movements now, so the account's rate limits are spent by one client; another desk takes over
-- when its lease runs out (senders.ts). The movements' own leases and tokens still decide each send.
CREATE TABLE profile_senders (
  profile_id text PRIMARY KEY,
  desk_id text NOT NULL,
  token bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
`,
  // 3. A solo desk's journal imported into the team (import.ts): at most one import per team, its
  //    audit log and its movements kept as they were on that desk, anchored by a signed entry of the
  //    team's audit chain (the hash of each block). Imported movements are history: no desk claims
  //    or sends them; one that was in flight there is resolved only by asking the platform.
  `
CREATE TABLE solo_import (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  desk_id text NOT NULL,
  -- The team audit entry, signed by the importing administrator, that anchors both blocks.
  audit_seq bigint NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now()
);
-- The solo audit log's entries, oldest first, each as that desk recorded it (with its HMAC hash).
CREATE TABLE solo_audit (
  n integer PRIMARY KEY CHECK (n >= 0),
  body text NOT NULL
);
-- The solo journal's movements, oldest first, each as that desk journaled it.
CREATE TABLE solo_movements (
  n integer PRIMARY KEY CHECK (n >= 0),
  id text NOT NULL UNIQUE,
  client_id text NOT NULL,
  request_key text,
  profile_id text NOT NULL,
  kind text NOT NULL,
  state text NOT NULL,
  -- Sent (or its answer lost) on the solo desk and not settled: resolved by the platform lookup by
  -- client id, never sent again.
  needs_lookup boolean NOT NULL,
  body text NOT NULL
);
`,
];

/** The schema version this desk writes. */
export const TEAM_SCHEMA_VERSION = MIGRATIONS.length;

const appliedVersion = async (tx: TeamSql): Promise<number> => {
  const [row] = await tx.query<{ version: number | null }>('SELECT max(version)::int AS version FROM team_schema');
  return row?.version ?? 0;
};

/**
 * Brings the team database to this desk's schema version. Returns the versions it applied (none when
 * another desk already had). Refuses a database a newer app has migrated.
 */
export const migrate = (db: TeamDatabase): Promise<number[]> =>
  db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS team_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const version = await appliedVersion(tx);
    if (version > MIGRATIONS.length)
      throw teamRefused(
        `The team database is at schema version ${version}, newer than this desk knows (${MIGRATIONS.length}).`,
        'Update Treasury Desk on this computer to the version the other desks run.',
      );
    const applied: number[] = [];
    for (let next = version + 1; next <= MIGRATIONS.length; next++) {
      await tx.query(MIGRATIONS[next - 1]!);
      await tx.query('INSERT INTO team_schema (version) VALUES ($1)', [next]);
      applied.push(next);
    }
    return applied;
  });
