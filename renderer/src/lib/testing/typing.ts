/**
 * Text into a field for component tests where the test is about the value, not the typing.
 *
 * user-event's `type` sends every character as its own keydown/keypress/input/keyup, and each input
 * re-renders the form (a whole order ticket or withdrawal form per character): most of the CPU of the
 * form tests. `enterText` puts the whole text in as one change, as a paste does, at the end of what
 * the field holds (where `type` would start too). Keep `userEvent.type` where the keystrokes are the
 * behaviour (a check as each character arrives, Enter submitting, a shortcut, Backspace).
 */
import userEvent from '@testing-library/user-event';

export const enterText = async (field: HTMLElement, text: string): Promise<void> => {
  await userEvent.click(field);
  await userEvent.paste(text);
};
