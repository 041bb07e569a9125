/**
 * What one kind of movement is, for the engine (engine.ts): how to send it, how to find it on the
 * platform by its client id, how to describe it. One file per kind in adapters/, listed once in
 * registry.ts. Adapters never touch the journal and never throw for an outcome: what a request or
 * a lookup did is returned as a value (`SendResult`, `Lookup`). See docs/core.md, "The movement engine".
 */
import type { MovementView } from '../../shared/contract/activity';
import { ApiError } from '../api/apiError';
import type { PlatformApi } from '../api/platform';
import { JournalUnwritable } from '../journal/writeFailure';

export type MovementKind = MovementView['kind'];

/** A journaled movement as an adapter sees it: its parameters and the id sent with every attempt. */
export interface Intent<P> {
  readonly id: string;
  readonly kind: MovementKind;
  /** withdraw_order_id / client_order_id / order text; "" for kinds the platform takes none for. */
  readonly clientId: string;
  readonly currency: string;
  readonly amount: string;
  readonly params: P;
}

/** Per attempt: the request id journaled before sending, and a hook for the signed Timestamp. */
export interface SendOptions {
  readonly requestId: string;
  /** Called when the client signs the request; throws JournalUnwritable when it cannot be recorded (then nothing is sent). */
  readonly onSigned: (timestampSec: number) => void;
}

/**
 * What one attempt did:
 * - `done`: the platform accepted it (`record`: its answer, for the caller);
 * - `refused`: the platform or the network says nothing was done (ApiError delivery `not-executed`);
 * - `unknown`: it may have executed (timeout, cut, 5xx, an answer that cannot be read).
 */
export type SendResult =
  | { readonly state: 'done'; readonly platformId: string; readonly status?: string; readonly record?: unknown }
  | { readonly state: 'refused'; readonly error: ApiError }
  | { readonly state: 'unknown'; readonly error: unknown };

/** A platform record that may be an intent's, for kinds without a client id. */
export interface Candidate {
  readonly id: string;
  /** Platform seconds. */
  readonly time: number;
  readonly status?: string;
}

/**
 * What the platform says about an intent:
 * - `found`: this is it (by its client id);
 * - `absent`: the platform's answer says it has no such id (the engine still waits for a late arrival
 *   unless the adapter's id makes a repeat harmless, see `absentIsFinal`);
 * - `candidates`: for kinds without a client id, the records that match it; the engine claims one
 *   in the lookup window that no other intent holds, or leaves a doubtful one to a person;
 * - `unknown`: no answer that settles it (`platformStatus` and `message` are shown meanwhile).
 */
export type Lookup =
  | { readonly state: 'found'; readonly platformId: string; readonly status?: string; readonly record?: unknown }
  | { readonly state: 'absent' }
  | { readonly state: 'candidates'; readonly candidates: readonly Candidate[] }
  | { readonly state: 'unknown'; readonly reason: string; readonly platformStatus?: string; readonly message?: string };

/**
 * Where a movement's record can lie on the platform's clock (seconds): from `tightFromSec` on it is
 * taken for this movement's; between `fromSec` and that it cannot be excluded (a signing clock up
 * to the signature window off, or, for old journals, today's offset instead of the one then).
 * `nowSec` is the platform's now.
 */
export interface LookupWindow {
  readonly anchorSec: number;
  readonly tightFromSec: number;
  readonly fromSec: number;
  readonly nowSec: number;
}

export interface MovementAdapter<K extends MovementKind = MovementKind, P = unknown> {
  readonly kind: K;
  /** The client id to journal for a new intent ("" when the platform takes none). */
  clientId(params: P): string;
  /** The currency and amount the journal shows (and matches identical movements by). */
  money(params: P): { currency: string; amount: string };
  /**
   * Whether an intent proven absent may be sent again, with the same id, and a journaled intent
   * that its own call did not send may go out later. False for orders: a late order is worse than none.
   */
  readonly resend: boolean;
  /**
   * Whether `absent` counts at once: the platform refuses to execute the same client id twice, so a
   * resend cannot double it (main ↔ sub's client_order_id). Otherwise the engine waits settleMs
   * after the last attempt could have left.
   */
  readonly absentIsFinal: boolean;
  /** The one request that performs it, with its client id. Never throws for the platform's answer. */
  send(platform: PlatformApi, intent: Intent<P>, options: SendOptions): Promise<SendResult>;
  /** Asks the platform whether it executed. Never throws for the platform's answer. */
  findByClientId(platform: PlatformApi, intent: Intent<P>, window: LookupWindow): Promise<Lookup>;
  /** What it is in the person's words ("withdrawal", "UID transfer", "order"). */
  describe(intent: Intent<P>): string;
}

/** Declares an adapter (checks its shape and keeps its parameter type). */
export const defineAdapter = <K extends MovementKind, P>(adapter: MovementAdapter<K, P>): MovementAdapter<K, P> =>
  adapter;

/**
 * Runs the one request of an attempt and says what it did, as a value. JournalUnwritable (the
 * signed time could not be recorded, so nothing left) is the engine's own and passes through.
 */
export const attempt = async <T>(
  run: () => Promise<T>,
  done: (answer: T) => { platformId: string; status?: string },
): Promise<SendResult> => {
  let answer: T;
  try {
    answer = await run();
  } catch (error) {
    if (error instanceof JournalUnwritable) throw error;
    if (error instanceof ApiError && error.delivery === 'not-executed') return { state: 'refused', error };
    return { state: 'unknown', error };
  }
  return { state: 'done', ...done(answer), record: answer };
};

/** Runs a lookup; anything it throws (but the journal's own JournalUnwritable) is "not settled". */
export const asking = async (run: () => Promise<Lookup>): Promise<Lookup> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof JournalUnwritable) throw error;
    return { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
  }
};

/**
 * from/to of a record lookup starting at `from` for an intent anchored at `anchorSec` (platform
 * time). No `to` while possible: the platform's default is its own now (its clock may run ahead of
 * ours). An intent older than that allows gets an end a day after it: the platform answers at most 30 days.
 */
export const recordRange = (from: number, window: LookupWindow): { from: number; to?: number } =>
  window.nowSec - from > 29 * 86_400 ? { from, to: window.anchorSec + 86_400 } : { from };

/** Is this a 4xx by which the platform says it does not know the id (not a refusal to answer)? */
export const isNotKnown = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  error.kind === 'platform' &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 401 &&
  error.status !== 403 &&
  error.status !== 429;
