/**
 * The Chromium shell's save dialog: where an export goes, asked in a page the SHELL opens at its own
 * site, like the trusted confirmation (./trustedPage.ts: no opener, no handle for the renderer,
 * which can neither fetch nor script it), with its answer function exposed to that page alone. It shows the file name
 * (editable) and the folder (default: the Downloads folder; another one must exist and be inside
 * the home folder), asks before replacing a file, and answers the core's `chooseSavePath` with the
 * path — or undefined (Cancel, Escape, closing it, 5 minutes without an answer): nothing is written.
 * The rules are checked here, in the shell's process (./savePath.ts); the page only collects.
 */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { checkSaveTarget } from './savePath';
import { createTrustedPages } from './trustedPage';

/** The save dialog's own site: another registrable name than the renderer's (treasury-desk.invalid). */
export const SAVE_ORIGIN = 'https://treasury-desk-save.invalid';
export const SAVE_URL = `${SAVE_ORIGIN}/save.html`;
const ANSWER_BINDING = '__deskSaveAnswer';

export const SAVE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; connect-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export interface SaveWindow {
  /** Asks where to save a file suggested as `suggestedName`; undefined when the person cancels. */
  choose(suggestedName: string): Promise<string | undefined>;
  /** Whether the shell opened this page (its 'page' listener closes every other new page). */
  owns(page: Page): Promise<boolean>;
}

export interface SaveWindowOptions {
  /** The folder the dialog opens in (always allowed, even outside home). */
  readonly defaultDir: string;
  /** Default: the OS's home folder. */
  readonly home?: string;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export const savePageHtml = (name: string, folder: string, home: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(SAVE_PAGE_CSP)}">
<title>Treasury Desk — save export</title><link rel="stylesheet" href="save.css"></head>
<body><main data-testid="save-dialog">
<p class="badge">Treasury Desk · save export</p>
<h1>Where should the file go?</h1>
<form id="form" novalidate>
<label for="name">File name</label>
<input id="name" data-testid="save-name" autocomplete="off" spellcheck="false" value="${escapeHtml(name)}" aria-describedby="name-error">
<p class="error" id="name-error" data-testid="save-name-error" role="alert"></p>
<label for="folder">Folder</label>
<input id="folder" data-testid="save-folder" autocomplete="off" spellcheck="false" value="${escapeHtml(folder)}" aria-describedby="folder-hint folder-error">
<p class="hint" id="folder-hint">An existing folder inside your home folder (${escapeHtml(home)}); ~ stands for it.</p>
<p class="error" id="folder-error" data-testid="save-folder-error" role="alert"></p>
<p class="overwrite" id="overwrite" data-testid="save-overwrite" role="alert" hidden></p>
<div class="buttons"><button type="button" id="cancel" data-testid="save-cancel">Cancel</button>
<button type="submit" id="save" data-testid="save-confirm">Save</button></div>
</form>
<p class="who">This window belongs to Treasury Desk itself; the app’s screens cannot see it. Closing it saves nothing.</p>
</main><script src="save.js"></script></body></html>`;

export const SAVE_PAGE_CSS = `
:root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 24px; background: Canvas; color: CanvasText; }
main { max-width: 560px; margin: 0 auto; }
.badge { font-size: 12px; text-transform: uppercase; letter-spacing: .08em; opacity: .75; margin: 0 0 8px; }
h1 { font-size: 22px; margin: 0 0 16px; }
label { display: block; margin: 12px 0 4px; font-weight: 600; }
input { font: inherit; padding: 6px 8px; width: 100%; box-sizing: border-box; }
.hint, .who { font-size: 13px; opacity: .8; margin: 4px 0; }
.error { color: #c53030; margin: 4px 0; min-height: 1em; }
.overwrite { padding: 8px 12px; border-left: 4px solid #b7791f; background: color-mix(in srgb, #b7791f 12%, Canvas); }
.buttons { display: flex; gap: 12px; justify-content: flex-end; margin: 16px 0; }
button { font: inherit; padding: 8px 16px; }
`;

/** The page's script: sends what was typed to the shell and shows its answer; keeps no secret. */
export const SAVE_PAGE_SCRIPT = `(() => {
  const answer = globalThis.${ANSWER_BINDING};
  try { delete globalThis.${ANSWER_BINDING}; } catch {}
  const $ = (id) => document.getElementById(id);
  const name = $('name'), folder = $('folder'), save = $('save'), overwrite = $('overwrite');
  let replace = false;
  let done = false;
  const reset = () => {
    replace = false; overwrite.hidden = true; overwrite.textContent = ''; save.textContent = 'Save';
    $('name-error').textContent = ''; $('folder-error').textContent = '';
    name.removeAttribute('aria-invalid'); folder.removeAttribute('aria-invalid');
  };
  name.addEventListener('input', reset);
  folder.addEventListener('input', reset);
  $('form').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (done) return;
    save.disabled = true;
    try {
      const result = await answer('save', name.value, folder.value, replace);
      if (result.state === 'saved') { done = true; return; }
      reset();
      if (result.state === 'exists') {
        replace = true;
        overwrite.textContent = 'A file named ' + result.name + ' already exists in ' + result.folder + '. Replace it?';
        overwrite.hidden = false;
        save.textContent = 'Replace';
      } else {
        $(result.field + '-error').textContent = result.message;
        $(result.field).setAttribute('aria-invalid', 'true');
        $(result.field).focus();
      }
    } finally { save.disabled = false; }
  });
  const cancel = () => { if (done) return; done = true; answer('cancel'); };
  $('cancel').addEventListener('click', cancel);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') cancel(); });
  const dot = name.value.lastIndexOf('.');
  name.focus();
  name.setSelectionRange(0, dot > 0 ? dot : name.value.length);
})();`;

type PageAnswer =
  | { state: 'saved' }
  | { state: 'exists'; name: string; folder: string }
  | { state: 'invalid'; field: 'name' | 'folder'; message: string };

export const createSaveWindow = (context: BrowserContext, options: SaveWindowOptions): SaveWindow => {
  const home = options.home ?? homedir();
  const pages = createTrustedPages<string | undefined>(context, {
    origin: SAVE_ORIGIN,
    binding: ANSWER_BINDING,
    csp: SAVE_PAGE_CSP,
    timeoutMs: options.timeoutMs ?? 5 * 60_000,
    ...(options.log ? { log: options.log } : {}),
  });

  return {
    choose: async (suggestedName) => {
      const extension = extname(suggestedName) || '.csv';
      // The Downloads folder may not exist yet (the core creates it when it writes there itself).
      await mkdir(options.defaultDir, { recursive: true }).catch(() => {});
      return pages.show({
        entry: '/save.html',
        files: {
          '/save.html': ['text/html; charset=utf-8', savePageHtml(suggestedName, options.defaultDir, home)],
          '/save.js': ['text/javascript; charset=utf-8', SAVE_PAGE_SCRIPT],
          '/save.css': ['text/css; charset=utf-8', SAVE_PAGE_CSS],
        },
        cancelled: undefined,
        describe: (path) => (path === undefined ? 'save dialog: cancelled' : `save dialog: ${path}`),
        onAnswer: async ([action, name, folder, replace], finish): Promise<PageAnswer> => {
          if (action !== 'save') {
            finish(undefined);
            return { state: 'saved' };
          }
          const check = await checkSaveTarget(
            { name: String(name ?? '').slice(0, 1_000), folder: String(folder ?? '').slice(0, 4_096) },
            { home, extension, alsoAllowed: [options.defaultDir] },
          );
          if (!check.ok) return { state: 'invalid', field: check.field, message: check.message };
          if (check.exists && replace !== true) {
            return { state: 'exists', name: String(name).trim(), folder: String(folder).trim() };
          }
          finish(check.path);
          return { state: 'saved' };
        },
      });
    },
    owns: pages.owns,
  };
};
