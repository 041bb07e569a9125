/**
 * The desk's operators (table `operators` of the journal, migration 5 in journal/db.ts) and who is
 * signed in now. Passphrases are checked here and nowhere else; repeated wrong ones for a name make
 * the next attempt for it wait (5 free attempts, then 2 s, 4 s, 8 s … up to 5 minutes). The count
 * and the time of the last failure are in the journal (table `passphrase_failures`, migration 7), so
 * restarting the app or its core does not reset them; only the right passphrase does, or another
 * administrator lifting the wait (`liftLockout`). A name no operator has is counted the same way, so
 * the answers never tell whether a name exists — under a keyed hash of the name, never the name
 * typed (`nameHash`: a passphrase typed into the name field must not be stored).
 *
 * Other modules use it through `OperatorSource` (`current()`: id, name, role) and `can(role, access)`
 * from ./access — see ./index.ts.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Operator, OperatorRole } from '../../shared/contract/operators';
import { DeskFailure } from '../errors';
import { type Db, statement } from '../journal/db';
import { DEFAULT_SCRYPT_COST, hashPassphrase, type ScryptCost, verifyPassphrase } from './passphrase';

export type { Operator, OperatorRole } from '../../shared/contract/operators';

/** Who is at the desk: what the dispatcher, the audit log, the journal and the approvals need. */
export interface OperatorInfo {
  readonly id: string;
  readonly name: string;
  readonly role: OperatorRole;
}

export interface OperatorSource {
  /** The operator signed in now, or undefined when nobody is (then only signing in is answered). */
  current(): OperatorInfo | undefined;
}

/** The operator signed in, or NOT_ALLOWED: nothing that changes anything runs while nobody is signed in. */
export const signedInOperator = (source: OperatorSource): OperatorInfo => {
  const who = source.current();
  if (who === undefined) {
    throw new DeskFailure({ code: 'NOT_ALLOWED', message: 'Nobody is signed in.', advice: 'Sign in first.' });
  }
  return who;
};

export interface OperatorsOptions {
  readonly db: Db;
  readonly now?: () => number;
  /** Tests only: a cheaper scrypt (the stored format is the same). */
  readonly scryptCost?: ScryptCost;
  /**
   * The keyed hash an unknown name is counted and recorded under (activity/auditTrust.ts: its key
   * is in the OS keychain). Default: keyed by a random value of this process.
   */
  readonly nameHash?: (name: string) => string;
}

/** Free attempts before the waiting starts. */
export const FREE_ATTEMPTS = 5;
const FIRST_WAIT_MS = 2_000;
const MAX_WAIT_MS = 5 * 60_000;

interface Row {
  id: string;
  name: string;
  role: OperatorRole;
  passphrase_hash: string;
  created_at: number;
  created_by: string;
  /** Null: never signed in (or in a journal from before migration 6). */
  last_sign_in_at?: number | null;
  /** The id of the administrator who last granted this operator anything ('' : nobody, the first one). */
  granted_by?: string;
  granted_at?: number | null;
  /** The administrator who chose the current passphrase ('' : the operator chose it). */
  passphrase_set_by?: string;
}

/** The last grant over an operator: who created them, changed their role or reset their passphrase, and when. */
export interface Grant {
  readonly byId: string;
  readonly byName: string;
  readonly at: number;
  /** The administrator who chose the operator's current passphrase, until the operator chooses their own. */
  readonly passphraseSetBy?: { readonly id: string; readonly name: string };
}

const toOperator = (
  row: Row,
  names: (id: string | undefined) => string | undefined = () => undefined,
  lockedOutUntil = 0,
): Operator => ({
  id: row.id,
  name: row.name,
  role: row.role,
  createdAt: row.created_at,
  createdBy: row.created_by,
  ...(row.last_sign_in_at ? { lastSignInAt: row.last_sign_in_at } : {}),
  ...(names(row.granted_by) !== undefined && row.granted_at
    ? { grantedBy: names(row.granted_by) as string, grantedAt: row.granted_at }
    : {}),
  ...(row.passphrase_set_by ? { passphraseSetBy: names(row.passphrase_set_by) ?? 'a removed administrator' } : {}),
  ...(lockedOutUntil > 0 ? { lockedOutUntil } : {}),
});

/** A hash of a name, keyed by a value of this process (when the core gives no keyed hash of its own). */
const processNameHash = (): ((name: string) => string) => {
  const key = randomBytes(32);
  return (name) => createHmac('sha256', key).update(name).digest('hex').slice(0, 16);
};

const wrongPassphrase = (): DeskFailure =>
  new DeskFailure({
    code: 'NOT_ALLOWED',
    label: 'WRONG_PASSPHRASE',
    message: 'That name and passphrase do not match an operator of this desk.',
    advice: 'Check the name and the passphrase (they are case-sensitive) and try again.',
  });

export class Operators implements OperatorSource {
  private signedIn: OperatorInfo | undefined;
  private readonly now: () => number;
  private readonly cost: ScryptCost;
  /** Checked against when the name is unknown, so that an unknown name takes as long as a known one. */
  private decoy: Promise<string> | undefined;

  private readonly nameHash: (name: string) => string;

  constructor(private readonly options: OperatorsOptions) {
    this.now = options.now ?? Date.now;
    this.cost = options.scryptCost ?? DEFAULT_SCRYPT_COST;
    this.nameHash = options.nameHash ?? processNameHash();
  }

  count(): number {
    return (statement(this.options.db, 'SELECT COUNT(*) AS n FROM operators').get() as { n: number }).n;
  }

  list(): Operator[] {
    const rows = statement<[], Row>(this.options.db, 'SELECT * FROM operators ORDER BY created_at, name').all();
    const names = new Map(rows.map((r) => [r.id, r.name]));
    return rows.map((r) => toOperator(r, (id) => (id ? names.get(id) : undefined), this.waitUntil(r.id)));
  }

  get(id: string): Operator | undefined {
    const row = statement<[string], Row>(this.options.db, 'SELECT * FROM operators WHERE id = ?').get(id);
    return row
      ? toOperator(row, (other) => (other ? this.nameOf(other) : undefined), this.waitUntil(row.id))
      : undefined;
  }

  private nameOf(id: string): string | undefined {
    return statement<[string], { name: string }>(this.options.db, 'SELECT name FROM operators WHERE id = ?').get(id)
      ?.name;
  }

  /** How many administrators the desk has: two or more put control changes under four eyes. */
  adminCount(): number {
    return (
      statement(this.options.db, "SELECT COUNT(*) AS n FROM operators WHERE role = 'admin'").get() as { n: number }
    ).n;
  }

  /** Who last granted this operator anything (created them, changed their role, reset their passphrase). */
  grantOf(id: string): Grant | undefined {
    const row = statement<
      [string],
      { by_id: string; by_name: string; at: number; set_by: string; set_by_name: string | null }
    >(
      this.options.db,
      `SELECT g.id AS by_id, g.name AS by_name, o.granted_at AS at, o.passphrase_set_by AS set_by, s.name AS set_by_name
         FROM operators o JOIN operators g ON g.id = o.granted_by LEFT JOIN operators s ON s.id = o.passphrase_set_by
         WHERE o.id = ? AND o.granted_at IS NOT NULL`,
    ).get(id);
    if (!row) return undefined;
    return {
      byId: row.by_id,
      byName: row.by_name,
      at: row.at,
      ...(row.set_by
        ? { passphraseSetBy: { id: row.set_by, name: row.set_by_name ?? 'a removed administrator' } }
        : {}),
    };
  }

  private rowByName(name: string): Row | undefined {
    return statement<[string], Row>(this.options.db, 'SELECT * FROM operators WHERE name = ? COLLATE NOCASE').get(
      operatorName(name),
    );
  }

  byName(name: string): Operator | undefined {
    const row = this.rowByName(name);
    return row ? toOperator(row) : undefined;
  }

  current(): OperatorInfo | undefined {
    return this.signedIn;
  }

  /** The signed-in operator as stored (role changes show at once). */
  currentOperator(): Operator | undefined {
    return this.signedIn ? this.get(this.signedIn.id) : undefined;
  }

  /** Until when a passphrase check for `name` waits after repeated failures (0: it does not). */
  retryAfter(name: string): number {
    return this.waitUntil(this.failureSubject(name, this.rowByName(name)));
  }

  /**
   * A name as the audit log records a sign-in attempt: the operator's own name, or — when no
   * operator has it — "unknown name #<keyed hash>", never what was typed (it may be a passphrase
   * typed into the wrong field). The same typed name gives the same hash, so repeated attempts
   * still show as one.
   */
  recordedName(name: string): string {
    return this.rowByName(name)?.name ?? `unknown name #${this.hashedName(name)}`;
  }

  /** A name no operator has, as it is kept: hashed, whatever its case (lookups ignore case too). */
  private hashedName(name: string): string {
    return this.nameHash(operatorName(name).toLowerCase());
  }

  /** Whose failures an attempt counts: the operator's id, or the keyed hash of a name no operator has. */
  private failureSubject(name: string, row: Row | undefined): string {
    return row ? row.id : `name:${this.hashedName(name)}`;
  }

  /**
   * Lets an operator whose sign-in waits after repeated wrong passphrases try again now. Done by an
   * administrator other than that operator (the caller checks who; the audit log records it).
   */
  liftLockout(id: string): Operator {
    const target = this.get(id);
    if (!target) throw DeskFailure.precondition('There is no such operator.');
    statement(this.options.db, 'DELETE FROM passphrase_failures WHERE subject = ?').run(id);
    return this.get(id) ?? target;
  }

  private waitUntil(subject: string): number {
    const row = statement<[string], { failures: number; last_failure_at: number }>(
      this.options.db,
      'SELECT failures, last_failure_at FROM passphrase_failures WHERE subject = ?',
    ).get(subject);
    if (!row || row.failures < FREE_ATTEMPTS) return 0;
    const ms = Math.min(FIRST_WAIT_MS * 2 ** (row.failures - FREE_ATTEMPTS), MAX_WAIT_MS);
    const now = this.now();
    // A last failure "in the future" (the computer's clock was set back) waits no longer than the step.
    const until = Math.min(row.last_failure_at, now) + ms;
    return until > now ? until : 0;
  }

  /**
   * Counts an attempt as a failure before its passphrase is checked (a right one clears it after),
   * in one transaction with the wait check: attempts made at the same time, or a core that dies in
   * the middle of one, cannot get more checks than the waiting allows.
   */
  private claimAttempt(subject: string): void {
    const db = this.options.db;
    db.transaction(() => {
      const until = this.waitUntil(subject);
      if (until > 0) throw tooManyAttempts(until - this.now(), until);
      statement(
        db,
        `INSERT INTO passphrase_failures (subject, failures, last_failure_at) VALUES (?, 1, ?)
         ON CONFLICT(subject) DO UPDATE SET failures = failures + 1, last_failure_at = excluded.last_failure_at`,
      ).run(subject, this.now());
    }).immediate();
  }

  /** The stored form of a new passphrase (scrypt): what a prepared control change keeps, never the passphrase. */
  hashPassphrase(passphrase: string): Promise<string> {
    return hashPassphrase(passphrase, this.cost);
  }

  /** Why an operator named `name` cannot be added now, if it cannot. */
  nameTaken(name: string): string | undefined {
    const clean = operatorName(name);
    return this.rowByName(clean) ? `There is already an operator named ${clean}.` : undefined;
  }

  /**
   * Adds an operator with a passphrase hash (hashPassphrase). `by` is the administrator who created
   * them: their grant over the new operator starts now. Names are unique whatever their case.
   */
  create(input: { name: string; passphraseHash: string; role: OperatorRole }, by: OperatorInfo): Operator {
    const name = operatorName(input.name);
    const taken = this.nameTaken(name);
    if (taken) throw DeskFailure.precondition(taken);
    const at = this.now();
    const id = randomUUID();
    try {
      statement(
        this.options.db,
        `INSERT INTO operators (id, name, role, passphrase_hash, created_at, updated_at, created_by, granted_by, granted_at, passphrase_set_by)
           VALUES (?,?,?,?,?,?,?,?,?,?)`,
      ).run(id, name, input.role, input.passphraseHash, at, at, by.name, by.id, at, by.id);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw DeskFailure.precondition(`There is already an operator named ${name}.`);
      }
      throw error;
    }
    return this.get(id) as Operator;
  }

  /**
   * The first start: creates the administrator, only while there is no operator at all (a second
   * call, even a racing one, is refused), and signs them in.
   */
  async setup(name: string, passphrase: string): Promise<Operator> {
    if (this.count() > 0) throw alreadySetUp();
    const hash = await hashPassphrase(passphrase, this.cost);
    const id = randomUUID();
    const at = this.now();
    const clean = operatorName(name);
    const inserted = statement(
      this.options.db,
      `INSERT INTO operators (id, name, role, passphrase_hash, created_at, updated_at, created_by)
         SELECT ?, ?, 'admin', ?, ?, ?, '' WHERE NOT EXISTS (SELECT 1 FROM operators)`,
    ).run(id, clean, hash, at, at);
    if (inserted.changes === 0) throw alreadySetUp();
    const operator = this.get(id)!;
    this.enter(operator);
    return this.get(id)!;
  }

  /**
   * Checks a name and passphrase (the same answer for an unknown name and a wrong passphrase, in
   * about the same time). After FREE_ATTEMPTS failures in a row for a name every further attempt for
   * it must wait, twice as long each time, across restarts; a success resets the count. Does not
   * sign in (see signIn).
   */
  async verify(name: string, passphrase: string): Promise<Operator> {
    const row = this.rowByName(name);
    const subject = this.failureSubject(name, row);
    this.claimAttempt(subject);
    let ok: boolean;
    if (row) ok = await verifyPassphrase(passphrase, row.passphrase_hash);
    else {
      this.decoy ??= hashPassphrase(randomUUID(), this.cost);
      await verifyPassphrase(passphrase, await this.decoy);
      ok = false;
    }
    // Already counted by claimAttempt.
    if (!ok || !row) throw wrongPassphrase();
    statement(this.options.db, 'DELETE FROM passphrase_failures WHERE subject = ?').run(subject);
    return toOperator(row);
  }

  /** Checks the passphrase and makes that operator the one at the desk. */
  async signIn(name: string, passphrase: string): Promise<Operator> {
    const operator = await this.verify(name, passphrase);
    this.enter(operator);
    return operator;
  }

  /** Makes an operator that `verify` just returned the one at the desk. */
  enter(operator: Operator): void {
    this.signedIn = { id: operator.id, name: operator.name, role: operator.role };
    statement(this.options.db, 'UPDATE operators SET last_sign_in_at = ? WHERE id = ?').run(this.now(), operator.id);
  }

  signOut(): void {
    this.signedIn = undefined;
  }

  /** Why this operator's role cannot become `role`, if it cannot (the desk keeps an administrator). */
  roleProblem(id: string, role: OperatorRole): string | undefined {
    const target = this.get(id);
    if (!target) return 'There is no such operator.';
    if (target.role === 'admin' && role !== 'admin' && this.adminCount() <= 1) {
      return 'The desk needs at least one administrator.';
    }
    return undefined;
  }

  /** Gives an operator another role; `by` (an administrator) holds a grant over them from now on. */
  changeRole(id: string, role: OperatorRole, by: OperatorInfo): Operator {
    const db = this.options.db;
    db.transaction(() => {
      const problem = this.roleProblem(id, role);
      if (problem) throw DeskFailure.precondition(problem, 'Make another operator an administrator first.');
      const at = this.now();
      statement(db, 'UPDATE operators SET role = ?, updated_at = ?, granted_by = ?, granted_at = ? WHERE id = ?').run(
        role,
        at,
        by.id,
        at,
        id,
      );
    }).immediate();
    if (this.signedIn?.id === id) this.signedIn = { ...this.signedIn, role };
    return this.get(id) as Operator;
  }

  /** Why this operator cannot be removed by `by`, if they cannot. */
  removeProblem(id: string, by: OperatorInfo): string | undefined {
    const target = this.get(id);
    if (!target) return 'There is no such operator.';
    if (target.id === by.id) return 'You cannot remove yourself; another administrator can.';
    if (target.role === 'admin' && this.adminCount() <= 1) return 'The desk needs at least one administrator.';
    return undefined;
  }

  /** Removes an operator (their name stays on what they did: audit entries and intents keep names). */
  remove(id: string, by: OperatorInfo): void {
    const db = this.options.db;
    db.transaction(() => {
      const problem = this.removeProblem(id, by);
      if (problem) throw DeskFailure.precondition(problem);
      statement(db, 'DELETE FROM operators WHERE id = ?').run(id);
      statement(db, 'DELETE FROM passphrase_failures WHERE subject = ?').run(id);
    }).immediate();
    if (this.signedIn?.id === id) this.signedIn = undefined;
  }

  /**
   * Gives an operator a new passphrase (its hash, hashPassphrase) chosen by an administrator, who
   * then knows it: `by` holds a grant over them from now on, and their failure count is cleared.
   */
  resetPassphrase(id: string, passphraseHash: string, by: OperatorInfo): Operator {
    const db = this.options.db;
    const at = this.now();
    const changed = statement(
      db,
      'UPDATE operators SET passphrase_hash = ?, updated_at = ?, granted_by = ?, granted_at = ?, passphrase_set_by = ? WHERE id = ?',
    ).run(passphraseHash, at, by.id, at, by.id, id);
    if (changed.changes === 0) throw DeskFailure.precondition('There is no such operator.');
    statement(db, 'DELETE FROM passphrase_failures WHERE subject = ?').run(id);
    return this.get(id) as Operator;
  }

  /** The signed-in operator's own passphrase; the current one is checked (and counts as an attempt). */
  async changePassphrase(current: string, next: string): Promise<void> {
    const me = this.signedIn;
    if (!me) throw DeskFailure.precondition('Nobody is signed in.');
    await this.verify(me.name, current);
    const hash = await hashPassphrase(next, this.cost);
    // Their own passphrase now: nobody else knows it any more.
    statement(
      this.options.db,
      "UPDATE operators SET passphrase_hash = ?, updated_at = ?, passphrase_set_by = '' WHERE id = ?",
    ).run(hash, this.now(), me.id);
  }
}

/** A name as stored and looked up (the case is ignored by the columns' NOCASE collation). */
const operatorName = (name: string): string => name.trim().normalize('NFC');

const alreadySetUp = (): DeskFailure =>
  new DeskFailure({
    code: 'NOT_ALLOWED',
    message: 'This desk already has an administrator.',
    advice: 'Sign in; an administrator adds operators in Settings → Operators.',
  });

const tooManyAttempts = (ms: number, until: number): DeskFailure =>
  new DeskFailure({
    code: 'NOT_ALLOWED',
    label: 'TOO_MANY_ATTEMPTS',
    message: `Too many wrong passphrases: try again in ${Math.ceil(ms / 1000)} s.`,
    advice: `Nothing was checked. The wait doubles after every further wrong passphrase (until ${new Date(until).toISOString()}).`,
  });

/**
 * Puts the signed-in operator's name on every new intent of the journal, whoever writes it: a
 * temporary trigger on this connection fills `intents.operator` when the insert left it empty.
 */
export const stampIntentsWithOperator = (db: Db, source: OperatorSource): void => {
  db.function('desk_current_operator', { deterministic: false }, () => source.current()?.name ?? '');
  db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS intents_operator AFTER INSERT ON main.intents
    WHEN NEW.operator = '' BEGIN
      UPDATE main.intents SET operator = desk_current_operator() WHERE id = NEW.id;
    END`);
};
