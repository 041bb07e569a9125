/**
 * The shell-owned pages, as text: the trusted confirmation and the page that shows a new API
 * secret once. Both shells show exactly these (the Chromium shell at their own sites, Electron in a
 * dedicated window), served with `trustedPageHeaders`.
 *
 * What the person reads is what is sent:
 * - every value is escaped (shown as text, never interpreted) and isolated — its own `<bdi
 *   dir="ltr">`, `unicode-bidi: isolate; direction: ltr` — so nothing in one value can reorder
 *   another, or the labels around it;
 * - invisible characters (bidi controls, zero-width characters, other \p{Cf}, control characters)
 *   are never drawn: each shows as its code point in a mark instead ([U+202E]). Main refuses them
 *   in every address, memo and name already (shared/contract/text.ts); this holds whatever slips by;
 * - every other character outside printable ASCII is marked and followed by its code point, so a
 *   Cyrillic `а` in a name never passes for a Latin `a`; a note under the rows says so. The few
 *   typographic signs main writes itself (· — … → ≈ ’ and the like) are left as they are.
 *
 * The page scripts only wire the buttons to the shell's answer function (`__deskConfirmAnswer`,
 * which only that page gets); the amount typed is compared in main, the page's own check is only
 * there to enable the button.
 */
import type { ConfirmView } from './confirm';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The pages' Content Security Policy: their own script and style files only, nothing else at all. */
export const CONFIRM_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; connect-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The headers of every file of a shell-owned page (the confirmation, the new secret, the save
 * dialog), in both shells: the CSP, no sniffing or caching, and its own browsing-context group and
 * agent cluster (`Origin-Agent-Cluster: ?1`: the page gets a process-level boundary of its own
 * origin, not merely of its site).
 */
export const trustedPageHeaders = (contentType: string, csp: string = CONFIRM_PAGE_CSP): Record<string, string> => ({
  'content-type': contentType,
  'content-security-policy': csp,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
});

/** Drawn as they are although outside ASCII: typographic signs main writes in its own words. */
const TYPOGRAPHY = new Set([...'·—–…→←↔≈’‘“”×≥≤•']);
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Z}\p{Default_Ignorable_Code_Point}]/u;

const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * A value as the page shows it: escaped, invisible characters replaced by a mark with their code
 * point, other non-ASCII characters marked and followed by their code point. `marked`: whether any was.
 */
export const shownValue = (text: string): { readonly html: string; readonly marked: boolean } => {
  let marked = false;
  let html = '';
  for (const char of text) {
    if (char >= ' ' && char <= '~') html += escapeHtml(char);
    else if (char !== ' ' && INVISIBLE.test(char)) {
      marked = true;
      html += `<mark class="invisible" title="An invisible character">[${codePoint(char)}]</mark>`;
    } else if (TYPOGRAPHY.has(char)) html += char;
    else {
      marked = true;
      html += `<mark class="non-ascii" title="Not a plain ASCII character">${escapeHtml(char)}<small>${codePoint(char)}</small></mark>`;
    }
  }
  return { html, marked };
};

/** One value of the page, isolated from everything around it. */
const isolated = (html: string, attributes = ''): string => `<bdi dir="ltr"${attributes}>${html}</bdi>`;

const MARKED_NOTE =
  '<p class="marked-note" data-testid="trusted-marked">Marked characters are not plain letters, digits or punctuation of the Latin alphabet: check them, they may look like others.</p>';

/**
 * A row's value as the page shows it (`shownValue`); an identifier in groups, as the review sheet
 * shows an address: each group its own element, the gap a margin, so the text — and a copy of
 * it — is exactly the identifier.
 */
const valueHtml = (r: ConfirmView['rows'][number]): { readonly html: string; readonly marked: boolean } => {
  if (!r.group) return shownValue(r.value);
  const groups = (r.value.match(new RegExp(`.{1,${r.group}}`, 'gsu')) ?? []).map(shownValue);
  return {
    html: groups.map((g) => `<span class="g">${g.html}</span>`).join(''),
    marked: groups.some((g) => g.marked),
  };
};

const rowsHtml = (rows: ConfirmView['rows']): { readonly html: string; readonly marked: boolean } => {
  let marked = false;
  const html = rows
    .map((r) => {
      const value = valueHtml(r);
      marked ||= value.marked;
      return `<div class="row"><dt>${isolated(escapeHtml(r.label))}</dt><dd>${isolated(value.html)}</dd></div>`;
    })
    .join('');
  return { html, marked };
};

const page = (options: {
  readonly testId: string;
  readonly action: string;
  readonly badge: string;
  readonly title: string;
  readonly body: string;
  readonly script: string | false;
}): string => {
  const title = shownValue(options.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONFIRM_PAGE_CSP)}">
<title>Treasury Desk — ${escapeHtml(options.badge)}</title><link rel="stylesheet" href="confirm.css"></head>
<body><main data-testid="${options.testId}" data-action="${escapeHtml(options.action)}">
<p class="badge">Treasury Desk · ${escapeHtml(options.badge)}</p>
<h1 data-testid="trusted-title">${isolated(title.html)}</h1>
${options.body}
</main>${options.script === false ? '' : `<script src="${options.script}"></script>`}</body></html>`;
};

export const confirmPageHtml = (view: ConfirmView, options: { readonly script?: boolean } = {}): string => {
  const rows = rowsHtml(view.rows);
  const amounts = view.typedAmounts ?? [];
  // One field per amount (a batch: one per currency), each labelled with the amount it asks for.
  const typed = amounts
    .map(
      (t, i) =>
        `<label for="typed-${i}">Type the ${amounts.length > 1 ? `total in ${escapeHtml(t.currency)}` : 'amount'}, <strong>${isolated(escapeHtml(`${t.amount} ${t.currency}`))}</strong>, to confirm</label>
<input id="typed-${i}" class="typed" data-testid="trusted-typed" data-currency="${escapeHtml(t.currency)}" autocomplete="off" spellcheck="false" inputmode="decimal" dir="ltr" data-amount="${escapeHtml(t.amount)}">`,
    )
    .join('\n');
  return page({
    testId: 'trusted-confirm',
    action: view.action,
    badge: 'confirmation',
    title: view.title,
    script: options.script === false ? false : 'confirm.js',
    body: `<dl data-testid="trusted-rows">${rows.html}</dl>
${rows.marked || shownValue(view.title).marked ? MARKED_NOTE : ''}
${view.note ? `<p class="note" data-testid="trusted-note">${isolated(escapeHtml(view.note))}</p>` : ''}
${typed}
<p class="who">This window belongs to Treasury Desk itself: the app’s screens can neither see nor click it. Closing it cancels.</p>
<div class="buttons"><button type="button" id="cancel" data-testid="trusted-cancel">Cancel</button>
<button type="button" id="confirm" data-testid="trusted-accept"${amounts.length > 0 ? ' disabled' : ''}>${escapeHtml(view.confirmLabel)}</button></div>`,
  });
};

/** New secrets (API keys', as the platform returns them once at creation), shown once by the shell. */
export interface SecretView {
  /** One line: "New API key for sub-account 10000003". */
  readonly title: string;
  /** What they belong to: the key id, its name, its permissions. */
  readonly rows: ConfirmView['rows'];
  /** The secrets themselves (one per new key): shown here and nowhere else, never returned to the app's window. */
  readonly secrets: readonly { readonly label: string; readonly value: string }[];
  readonly note?: string;
}

/** The shell's page for a new secret; resolves once it is closed (`shown`: it was on screen). */
export type ShowSecret = (view: SecretView) => Promise<{ readonly shown: boolean }>;

export const secretPageHtml = (view: SecretView, options: { readonly script?: boolean } = {}): string => {
  const rows = rowsHtml(view.rows);
  return page({
    testId: 'trusted-secret',
    action: 'secret',
    badge: 'new secret',
    title: view.title,
    script: options.script === false ? false : 'secret.js',
    body: `<dl data-testid="trusted-rows">${rows.html}</dl>
${view.secrets
  .map(
    (s) => `<p class="secret-label">${isolated(escapeHtml(s.label))}</p>
<p class="secret"><code data-testid="trusted-secret-value">${isolated(escapeHtml(s.value))}</code></p>`,
  )
  .join('')}
${view.note ? `<p class="note" data-testid="trusted-note">${isolated(escapeHtml(view.note))}</p>` : ''}
<p class="who">This window belongs to Treasury Desk itself: the app’s screens can neither see nor read it. Shown this once: copy it now. Closing this window forgets it.</p>
<div class="buttons"><button type="button" id="done" data-testid="trusted-secret-done">I have copied it</button></div>`,
  });
};

export const CONFIRM_PAGE_CSS = `
:root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 24px; background: Canvas; color: CanvasText; }
main { max-width: 560px; margin: 0 auto; }
bdi { unicode-bidi: isolate; direction: ltr; }
.badge { font-size: 12px; text-transform: uppercase; letter-spacing: .08em; opacity: .75; margin: 0 0 8px; }
h1 { font-size: 22px; margin: 0 0 16px; }
dl { margin: 0 0 16px; border-top: 1px solid color-mix(in srgb, CanvasText 20%, transparent); }
.row { display: grid; grid-template-columns: 11em 1fr; gap: 8px; padding: 6px 0; border-bottom: 1px solid color-mix(in srgb, CanvasText 12%, transparent); }
.g { font-family: ui-monospace, monospace; } .g + .g { margin-left: .4em; }
dt { opacity: .8; } dd { margin: 0; word-break: break-all; font-variant-numeric: tabular-nums; unicode-bidi: isolate; direction: ltr; }
mark { background: #fde68a; color: #111; border-radius: 3px; padding: 0 2px; outline: 1px solid #b45309; }
mark small { font-size: 10px; margin-left: 2px; }
.marked-note, .note { padding: 8px 12px; border-left: 4px solid #b7791f; background: color-mix(in srgb, #b7791f 12%, Canvas); }
label { display: block; margin: 12px 0 4px; }
input { font: inherit; padding: 6px 8px; width: 100%; box-sizing: border-box; }
.secret-label { margin: 12px 0 4px; font-weight: 600; }
.secret code { display: block; padding: 8px; font-size: 16px; word-break: break-all; user-select: all; border: 1px solid color-mix(in srgb, CanvasText 30%, transparent); border-radius: 6px; }
.who { font-size: 13px; opacity: .8; }
.buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 16px; }
button { font: inherit; padding: 8px 16px; border-radius: 6px; border: 1px solid #666; cursor: pointer; }
#confirm, #done { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
#confirm:disabled { opacity: .5; cursor: not-allowed; }
`;

/** The confirmation page's script: wires the buttons to the answer function the shell gave this page only. */
export const CONFIRM_PAGE_SCRIPT = `(() => {
  const answer = globalThis.__deskConfirmAnswer;
  try { delete globalThis.__deskConfirmAnswer; } catch {}
  const typed = [...document.querySelectorAll('input.typed')];
  const accept = document.getElementById('confirm');
  const canon = (t) => t.replace(/[\\s,]/g, '').replace(/^\\./, '0.').replace(/\\.$/, '').replace(/(\\.\\d*?)0+$/, '$1').replace(/\\.$/, '');
  const check = () => { accept.disabled = typed.some((t) => canon(t.value) !== canon(t.dataset.amount)); };
  for (const t of typed) t.addEventListener('input', check);
  let sent = false;
  const send = (accepted) => { if (sent) return; sent = true; answer(accepted, typed.length > 0 ? typed.map((t) => t.value) : undefined); };
  accept.addEventListener('click', () => send(true));
  document.getElementById('cancel').addEventListener('click', () => send(false));
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') send(false); });
  (typed[0] || document.getElementById('cancel')).focus();
})();`;

/** The secret page's script: "I have copied it" (or Escape) closes it; nothing is sent back but that. */
export const SECRET_PAGE_SCRIPT = `(() => {
  const answer = globalThis.__deskConfirmAnswer;
  try { delete globalThis.__deskConfirmAnswer; } catch {}
  let sent = false;
  const done = () => { if (sent) return; sent = true; answer(true); };
  document.getElementById('done').addEventListener('click', done);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') done(); });
  document.getElementById('done').focus();
})();`;
