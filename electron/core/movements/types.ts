/**
 * Money movement: the ONLY way the app moves funds. Every call writes an intent with a generated
 * withdraw_order_id / client_order_id to the journal BEFORE anything is sent; an outcome that is
 * not known (timeout, cut connection, 5xx, crash) is resolved by asking the platform, never by
 * sending blindly, and a retry reuses the same id. See docs/core.md.
 */
import type { MovementView } from '../../../shared/contract/activity';
import type {
  PushRequest,
  SubAccountTransferRequest,
  SubToSubTransferRequest,
  TransferRequest,
  WithdrawRequest,
} from '../../../shared/platform/api/wallet';

/**
 * One journaled movement (schema: shared/contract/activity.ts `Movement`). States:
 * - `prepared`: journaled, not sent yet (a crash here means it was never sent).
 * - `sent`: on the wire; the answer is awaited.
 * - `unknown`: sent, the answer was lost; being checked with the platform.
 * - `done`: the platform accepted it (for a withdrawal, `platformStatus` follows its progress).
 * - `failed`: the platform refused it (`label`), or it was proven never executed and abandoned.
 * `clientId` is the withdraw_order_id / client_order_id sent with every attempt ("" for kinds the
 * platform takes no id for: push and own-account transfer); `platformId` the platform's id once known.
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
 * Each operation resolves with the movement in state `done` once the platform accepted it.
 * It rejects with the platform's error (an ApiError: the dispatcher shows its label and advice)
 * when refused, and with DeskFailure code OUTCOME_UNKNOWN when the outcome could not be settled
 * yet: the journal keeps checking in the background and emits `activity.movementChanged`.
 */
export interface Movements {
  withdraw(request: WithdrawRequest, options?: MovementOptions): Promise<Movement>;
  /** UID transfer to another main account. */
  push(request: PushRequest, options?: MovementOptions): Promise<Movement>;
  /** Between the active account's own accounts (spot, margin, futures, …). */
  transfer(request: TransferRequest, options?: MovementOptions): Promise<Movement>;
  /** Main ↔ sub-account. */
  subAccountTransfer(request: SubAccountTransferRequest, options?: MovementOptions): Promise<Movement>;
  /**
   * Sub-account → sub-account. The spec gives this operation neither a client id nor a record
   * listing: if its answer is lost it stays `unknown` until a person settles it (resolveManually).
   */
  subToSubTransfer(request: SubToSubTransferRequest, options?: MovementOptions): Promise<Movement>;
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
