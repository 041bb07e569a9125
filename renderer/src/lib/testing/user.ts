/**
 * The person at the keyboard, for component tests.
 *
 * Each event user-event sends is flushed through React (act), so a form re-renders per event: most
 * of the CPU of the form tests. Two ways to send fewer, where the test is about the value or the
 * outcome rather than the gesture:
 * - `enterText` puts a whole text in a field as one change, as a paste does, at the end of what the
 *   field holds (where `type` would start too), after a click without hover (as `setupUser`'s). Keep `userEvent.type` where the keystrokes are the
 *   behaviour (a check as each character arrives, Enter submitting, a shortcut, Backspace).
 * - `setupUser` is user-event without hovering the pointer over an element before clicking it (no
 *   screen acts on hover; the hover is six more events per click). It keeps user-event's pause
 *   between actions: `delay: null` saved little CPU. (It also made TransferForm.test's "after a
 *   transfer is done" fail one run in four: a real bug, an older field check answering after the
 *   form's reset, fixed in `useRulesAtFields`; with `delay: null` it now passed 15 repeats of 15.)
 */
import userEvent from '@testing-library/user-event';

export const setupUser = () => userEvent.setup({ skipHover: true });

export const enterText = async (field: HTMLElement, text: string): Promise<void> => {
  const user = setupUser();
  await user.click(field);
  await user.paste(text);
};
