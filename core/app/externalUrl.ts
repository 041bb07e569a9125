/**
 * The one check of a link main opens in the person's browser (`app.openExternal`): the core's
 * handler, remoteCore (the shell's side) and both shells run it. Electron-free and fs-free, so the
 * shells can import it without the rest of the core.
 */
import { EXPLORER_HOSTS, externalUrlProblem } from '../../shared/platform/explorers';
import { DeskFailure } from '../errors';

/**
 * Opens an https link in the system browser (Electron: shell.openExternal; the Chromium shell:
 * xdg-open / open / start when it has a display). Resolves false when it did not (headless, or the
 * system refused). Only ever called with a URL `checkExternalUrl` accepted.
 */
export type OpenExternal = (url: string) => Promise<boolean>;

/**
 * The link main may open, normalised, or a DeskFailure (INVALID_INPUT): https only, a block
 * explorer's host exactly (shared/platform/explorers.ts), no user name, password or port. The text
 * check of the contract runs first; this parses it as a browser would, so a URL that reads one way
 * and parses another is refused too. The shells check again with the same function.
 */
export const checkExternalUrl = (raw: string): string => {
  const refuse = (message: string) => new DeskFailure({ code: 'INVALID_INPUT', message, fields: { url: message } });
  const problem = externalUrlProblem(raw);
  if (problem) throw refuse(problem);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('This is not a web address.');
  }
  if (url.protocol !== 'https:') throw refuse('Only https links are opened.');
  if (url.username !== '' || url.password !== '' || url.port !== '') throw refuse('The link names a user or a port.');
  if (!EXPLORER_HOSTS.has(url.hostname)) throw refuse('Only links to the block explorers the app knows are opened.');
  return url.href;
};
