/**
 * Money movement: the ONLY way the app moves funds. Every call writes an intent with a generated
 * withdraw_order_id / client_order_id to the journal BEFORE anything is sent; an outcome that is
 * not known (timeout, cut connection, 5xx, crash) is resolved by asking the platform, never by
 * sending blindly, and a retry reuses the same id. See docs/core.md.
 */
import type { MovementView } from '../../shared/contract/activity';
import type { DeskFailure } from '../errors';
import type { MovementParams } from './registry';

/**
 * One journaled movement (schema: shared/contract/activity.ts `Movement`). States:
 * - `prepared`: journaled, not sent yet (a crash here means it was never sent).
 * - `sent`: on the wire; the answer is awaited.
 * - `unknown`: sent, the answer was lost; being checked with the platform.
 * - `done`: the platform accepted it (for a withdrawal, `platformStatus` follows its progress).
 * - `failed`: the platform refused it (`label`), or it was proven never executed and abandoned.
 * `clientId` is the withdraw_order_id / client_order_id / order text sent with every attempt ("" for
 * kinds the platform takes no id for: push, own-account and sub → sub transfers); `platformId` the
 * platform's id once known.
 */
export type Movement = MovementView;
export type MovementKind = Movement['kind'];
export type MovementState = Movement['state'];

/**
 * How the person's request is told apart from a repeat of it. `requestKey` is made by the screen
 * when the review/confirm step opens (a UUID) and sent with every attempt of that confirmation: a
 * second call with the same key (a double click, a re-render, a retry, even after a restart) joins
 * the movement the first call journaled instead of creating another one.
 */
export interface MovementOptions {
  readonly requestKey?: string;
  /**
   * Where it was asked for, in words (policies/authorize.ts `originText`): `screen`, or a batch row
   * confirmed as a whole. Journaled with the intent.
   */
  readonly origin?: string;
  /**
   * Team mode (docs/team.md): the client id the maker signed, sent instead of a new one, so that any
   * desk of the team can look the movement up by it. Ignored for kinds the platform takes no id for.
   */
  readonly clientId?: string;
  /**
   * Team mode: another desk journaled this movement `sent` in the team database and stopped before
   * its answer was known. It is journaled here as sent with its answer lost, so the first thing done
   * is to look it up by its client id; it is sent again (same id) only once proven absent.
   */
  readonly sentElsewhere?: boolean;
}

export interface MovementFilter {
  readonly kind?: MovementKind;
  readonly state?: MovementState;
  /** Defaults to the active profile. */
  readonly profileId?: string;
  /** Unix ms, inclusive. */
  readonly from?: number;
  readonly to?: number;
  readonly limit?: number;
}

/**
 * What asking for a movement did, as a value:
 * - `done`: the platform accepted it (`record`: the platform's answer, when this call got one);
 * - `unknown`: it may have executed; the engine keeps checking by its client id and never sends it
 *   blindly (`failure`: OUTCOME_UNKNOWN, delivery `unknown`, for the screen);
 * - `refused`: nothing moved — refused by the platform, proven never executed, or stopped by the
 *   app before sending (`failure`: the ApiError or DeskFailure to show, delivery `not_sent`).
 */
export type MovementResult =
  | { readonly state: 'done'; readonly movement: Movement; readonly record?: unknown }
  | { readonly state: 'unknown'; readonly movement?: Movement; readonly failure: DeskFailure }
  | { readonly state: 'refused'; readonly movement?: Movement; readonly failure: Error };

/**
 * The movement engine (engine.ts). `execute` is the one entry point; the kind-named calls resolve
 * with the movement in state `done` and reject with the result's failure otherwise (an ApiError
 * or DeskFailure when refused, DeskFailure OUTCOME_UNKNOWN when the outcome is not settled yet:
 * the engine keeps checking in the background and emits `activity.movementChanged`).
 */
export interface Movements {
  /** Journals the movement, sends it once and settles its outcome (see MovementResult). */
  execute<K extends MovementKind>(
    kind: K,
    params: MovementParams[K],
    options?: MovementOptions,
  ): Promise<MovementResult>;
  withdraw(request: MovementParams['withdrawal'], options?: MovementOptions): Promise<Movement>;
  /** UID transfer to another main account. */
  push(request: MovementParams['push'], options?: MovementOptions): Promise<Movement>;
  /** Between the active account's own accounts (spot, margin, futures, …). */
  transfer(request: MovementParams['transfer'], options?: MovementOptions): Promise<Movement>;
  /** Main ↔ sub-account. */
  subAccountTransfer(request: MovementParams['subAccountTransfer'], options?: MovementOptions): Promise<Movement>;
  /**
   * Sub-account → sub-account. The spec gives this operation neither a client id nor a record
   * listing: if its answer is lost it stays `unknown` until a person settles it (resolveManually).
   */
  subToSubTransfer(request: MovementParams['subToSubTransfer'], options?: MovementOptions): Promise<Movement>;
  /** A person settles an `unknown` movement after checking the balances (audited by the caller). */
  resolveManually(id: string, outcome: 'done' | 'failed', note: string): Movement;
  list(filter?: MovementFilter): Movement[];
  get(id: string): Movement | undefined;
  /** The movement journaled for this request key (any profile), if any. */
  byRequestKey(requestKey: string): Movement | undefined;
  /** Settles every open intent of the active profile by asking the platform (run on connect). */
  reconcile(): Promise<void>;
  /** Records a newer platform status of a done movement (used by the watchers). */
  updatePlatformStatus(id: string, status: string): void;
}
