/**
 * The trusted confirmation's page, as text: both shells show exactly this (the Chromium shell at
 * its own origin, Electron in a dedicated window). Every value of the view is escaped: it is
 * shown as text, never interpreted. The page script only wires the buttons to the shell's answer
 * function (`__deskConfirmAnswer`, which only this page gets); the amount typed is compared in
 * main, the page's own check is only there to enable the button.
 */
import type { ConfirmView } from './confirm';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The page's Content Security Policy: its own script and style files only, nothing else at all. */
export const CONFIRM_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; connect-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * A value as text; an identifier in groups (as the review sheet shows an address): each group its own
 * element, the gap a margin, so the text — and a copy of it — is exactly the identifier.
 */
const valueHtml = (r: ConfirmView['rows'][number]): string =>
  r.group
    ? (r.value.match(new RegExp(`.{1,${r.group}}`, 'gsu')) ?? [])
        .map((g) => `<span class="g">${escapeHtml(g)}</span>`)
        .join('')
    : escapeHtml(r.value);

export const confirmPageHtml = (view: ConfirmView, options: { readonly script?: boolean } = {}): string => {
  const rows = view.rows
    .map((r) => `<div class="row"><dt>${escapeHtml(r.label)}</dt><dd>${valueHtml(r)}</dd></div>`)
    .join('');
  const typed = view.typedAmount
    ? `<label for="typed">Type the amount, <strong>${escapeHtml(view.typedAmount.amount)} ${escapeHtml(view.typedAmount.currency)}</strong>, to confirm</label>
<input id="typed" data-testid="trusted-typed" autocomplete="off" spellcheck="false" inputmode="decimal" data-amount="${escapeHtml(view.typedAmount.amount)}">`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONFIRM_PAGE_CSP)}">
<title>Treasury Desk — confirm</title><link rel="stylesheet" href="confirm.css"></head>
<body><main data-testid="trusted-confirm" data-action="${escapeHtml(view.action)}">
<p class="badge">Treasury Desk · confirmation</p>
<h1 data-testid="trusted-title">${escapeHtml(view.title)}</h1>
<dl data-testid="trusted-rows">${rows}</dl>
${view.note ? `<p class="note" data-testid="trusted-note">${escapeHtml(view.note)}</p>` : ''}
${typed}
<p class="who">This window belongs to Treasury Desk itself: the app’s screens can neither see nor click it. Closing it cancels.</p>
<div class="buttons"><button type="button" id="cancel" data-testid="trusted-cancel">Cancel</button>
<button type="button" id="confirm" data-testid="trusted-accept"${view.typedAmount ? ' disabled' : ''}>${escapeHtml(view.confirmLabel)}</button></div>
</main>${options.script === false ? '' : '<script src="confirm.js"></script>'}</body></html>`;
};

export const CONFIRM_PAGE_CSS = `
:root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 24px; background: Canvas; color: CanvasText; }
main { max-width: 560px; margin: 0 auto; }
.badge { font-size: 12px; text-transform: uppercase; letter-spacing: .08em; opacity: .75; margin: 0 0 8px; }
h1 { font-size: 22px; margin: 0 0 16px; }
dl { margin: 0 0 16px; border-top: 1px solid color-mix(in srgb, CanvasText 20%, transparent); }
.row { display: grid; grid-template-columns: 11em 1fr; gap: 8px; padding: 6px 0; border-bottom: 1px solid color-mix(in srgb, CanvasText 12%, transparent); }
dt { opacity: .8; } dd { margin: 0; word-break: break-all; font-variant-numeric: tabular-nums; }
.g { font-family: ui-monospace, monospace; } .g + .g { margin-left: .4em; }
.note { padding: 8px 12px; border-left: 4px solid #b7791f; background: color-mix(in srgb, #b7791f 12%, Canvas); }
label { display: block; margin: 12px 0 4px; }
input { font: inherit; padding: 6px 8px; width: 100%; box-sizing: border-box; }
.who { font-size: 13px; opacity: .8; }
.buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 16px; }
button { font: inherit; padding: 8px 16px; border-radius: 6px; border: 1px solid #666; cursor: pointer; }
#confirm { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
#confirm:disabled { opacity: .5; cursor: not-allowed; }
`;

/** The page script (Chromium shell): wires the buttons to the answer function the shell gave this page only. */
export const CONFIRM_PAGE_SCRIPT = `(() => {
  const answer = globalThis.__deskConfirmAnswer;
  try { delete globalThis.__deskConfirmAnswer; } catch {}
  const typed = document.getElementById('typed');
  const accept = document.getElementById('confirm');
  const canon = (t) => t.replace(/[\\s,]/g, '').replace(/^\\./, '0.').replace(/\\.$/, '').replace(/(\\.\\d*?)0+$/, '$1').replace(/\\.$/, '');
  if (typed) typed.addEventListener('input', () => { accept.disabled = canon(typed.value) !== canon(typed.dataset.amount); });
  let sent = false;
  const send = (accepted) => { if (sent) return; sent = true; answer(accepted, typed ? typed.value : undefined); };
  accept.addEventListener('click', () => send(true));
  document.getElementById('cancel').addEventListener('click', () => send(false));
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') send(false); });
  (typed || document.getElementById('cancel')).focus();
})();`;
