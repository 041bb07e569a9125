/**
 * The trusted confirmation: before main sends a withdrawal, a UID push, a transfer above the
 * threshold, an API-key change, a policy change or an approval, it asks the SHELL (not the
 * renderer) to show what it is about to do, in a window the renderer cannot script (Chromium shell:
 * a page at its own origin with its own binding; Electron: a dedicated window with its own preload).
 * The view is built here, in the core, from the intent main is about to journal (or the journaled
 * approval), never from anything the renderer rendered. The typed amount is checked here too.
 * See docs/security.md, "The trusted confirmation".
 */
import Decimal from 'decimal.js';
import { parseAmountInput } from '../../shared/format/money';
import { DeskFailure } from '../errors';

export type ConfirmAction =
  | 'withdrawal'
  | 'push'
  | 'transfer'
  | 'batch'
  | 'keyCreate'
  | 'keyDelete'
  | 'policy'
  | 'endpoint'
  | 'control'
  | 'approve'
  | 'auditAcknowledge'
  | 'liftLockout';

/** An amount the person must type in the confirmation, in its currency. */
export interface TypedAmount {
  readonly amount: string;
  readonly currency: string;
}

/** One line of the confirmation. */
export interface ConfirmRow {
  readonly label: string;
  readonly value: string;
  /**
   * An identifier to compare character by character (an address, a key): shown in groups of this
   * many characters, as the review sheet shows it — by layout only, the text holds no space.
   */
  readonly group?: number;
}

/** What the confirmation window shows: plain data, rendered as text (never as HTML). */
export interface ConfirmView {
  readonly action: ConfirmAction;
  /** One line: "Withdraw 250 USDT". */
  readonly title: string;
  /** Label → value, in order: amount, destination, network, fee, profile, operator, … */
  readonly rows: readonly ConfirmRow[];
  /**
   * When set, the person must type each of these amounts (a movement above the threshold: its
   * amount; a batch: its total per currency); main compares every one.
   */
  readonly typedAmounts?: readonly TypedAmount[];
  /** A line shown above the buttons (e.g. "This needs an approver before it is sent"). */
  readonly note?: string;
  /** The button's words ("Withdraw", "Approve and send", "Delete key"). */
  readonly confirmLabel: string;
}

export interface ConfirmAnswer {
  readonly accepted: boolean;
  /** What the person typed, when the view asked for it: one entry per `typedAmounts`, in order. */
  readonly typedAmounts?: readonly string[];
}

/** Shows a view in the shell's trusted window and resolves with the person's answer. */
export type Confirm = (view: ConfirmView) => Promise<ConfirmAnswer>;

/** Whether `typed` (as a person writes it: "1,000.5") is exactly `amount`. */
export const typedAmountMatches = (typed: string | undefined, amount: string): boolean => {
  if (typed === undefined) return false;
  const parsed = parseAmountInput(typed);
  if (!parsed.ok) return false;
  try {
    return new Decimal(parsed.value).equals(new Decimal(amount));
  } catch {
    return false;
  }
};

/** How long main waits for an answer before taking it as a cancel (the shell has its own timer too). */
export const CONFIRM_TIMEOUT_MS = 5 * 60_000;

const declined = (message: string): DeskFailure =>
  new DeskFailure({
    code: 'CONFIRMATION_DECLINED',
    message,
    advice: 'Nothing was sent. Start again and confirm in the Treasury Desk confirmation window.',
  });

/**
 * Asks for the confirmation and throws CONFIRMATION_DECLINED (nothing sent) unless the person
 * confirmed and, when asked, typed exactly the amount. No shell (`confirm` undefined): refused.
 */
export const requireConfirmation = async (
  confirm: Confirm | undefined,
  view: ConfirmView,
  timeoutMs = CONFIRM_TIMEOUT_MS,
): Promise<void> => {
  if (confirm === undefined) {
    throw declined('This shell cannot show the trusted confirmation, so nothing that needs one is sent.');
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ConfirmAnswer>((resolve) => {
    timer = setTimeout(() => resolve({ accepted: false }), timeoutMs);
    timer.unref?.();
  });
  let answer: ConfirmAnswer;
  try {
    answer = await Promise.race([confirm(view).catch((): ConfirmAnswer => ({ accepted: false })), timeout]);
  } finally {
    clearTimeout(timer);
  }
  if (!answer.accepted) throw declined('The confirmation was cancelled, closed or timed out.');
  const wrong = (view.typedAmounts ?? []).find((t, i) => !typedAmountMatches(answer.typedAmounts?.[i], t.amount));
  if (wrong) {
    throw declined(`The amount typed in the confirmation window was not ${wrong.amount} ${wrong.currency}.`);
  }
};
