/**
 * The trusted confirmation window's preload (electron/main/confirmWindow.ts): exposes one
 * function, `answer(accepted, typedAmounts)`, as the page's `__deskConfirmAnswer` (the name the
 * confirmation page's script looks for, core/policies/confirmPage.ts), sending on the
 * confirmation's own channel. Nothing else: no ipcRenderer, no contract, no events. Main checks
 * that the answer comes from that window, and compares the typed amount itself.
 */
import { contextBridge, ipcRenderer } from 'electron';

/**
 * electron/main/channels.ts `CONFIRM_ANSWER_CHANNEL` (main.test.ts checks they are the same).
 * Written out here, not imported: a module shared with the other preload would become a chunk of
 * its own, and a sandboxed preload can require nothing but 'electron'.
 */
const CONFIRM_ANSWER_CHANNEL = 'desk-confirm:answer';

/** `typedAmounts`: one string per amount the page asked for (main cuts and checks them again). */
const answer = (accepted: unknown, typedAmounts: unknown): void => {
  ipcRenderer.send(
    CONFIRM_ANSWER_CHANNEL,
    accepted === true,
    Array.isArray(typedAmounts)
      ? typedAmounts.slice(0, 32).map((t) => (typeof t === 'string' ? t.slice(0, 100) : ''))
      : undefined,
  );
};

contextBridge.exposeInMainWorld('__deskConfirmAnswer', answer);
