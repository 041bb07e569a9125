import { describe, expect, it } from 'vitest';
import type { ConfirmView } from './confirm';
import { CONFIRM_PAGE_CSS, confirmPageHtml, secretPageHtml, shownValue, trustedPageHeaders } from './confirmPage';

const view = (rows: ConfirmView['rows'], title = 'Withdraw 60 USDT'): ConfirmView => ({
  action: 'withdrawal',
  title,
  rows,
  confirmLabel: 'Withdraw',
});

/** The text a person reads in a row's value: tags removed, entities decoded. */
const readable = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('the trusted confirmation page', () => {
  it('isolates every value: its own <bdi dir="ltr">, unicode-bidi: isolate, direction: ltr', () => {
    const html = confirmPageHtml(view([{ label: 'Address', value: 'TXYZabcdef1234567890' }]));
    expect(html).toContain('<dd><bdi dir="ltr">TXYZabcdef1234567890</bdi></dd>');
    expect(html).toContain('<h1 data-testid="trusted-title"><bdi dir="ltr">Withdraw 60 USDT</bdi></h1>');
    expect(CONFIRM_PAGE_CSS).toMatch(/bdi \{ unicode-bidi: isolate; direction: ltr; \}/);
    expect(CONFIRM_PAGE_CSS).toMatch(/dd \{[^}]*unicode-bidi: isolate; direction: ltr;/);
  });

  it('never draws a direction override or a zero-width character: each shows as its code point, in place', () => {
    const html = confirmPageHtml(
      view([
        { label: 'Address', value: 'TXYZ\u202Eabcdef1234567890' },
        { label: 'Memo', value: '\u202E12345 :gat laer' },
        { label: 'Name', value: 'desk\u200B_ops' },
      ]),
    );
    expect(html).not.toMatch(/[\u202E\u200B]/);
    expect(readable(html)).toContain('TXYZ[U+202E]abcdef1234567890');
    expect(readable(html)).toContain('[U+202E]12345 :gat laer');
    expect(readable(html)).toContain('desk[U+200B]_ops');
    expect(html).toContain('data-testid="trusted-marked"');
  });

  it('marks every other non-ASCII character with its code point: a Cyrillic а never passes for a Latin a', () => {
    const html = confirmPageHtml(view([{ label: 'Operator', value: 'm\u0430llory (admin)' }]));
    expect(html).toContain(
      'm<mark class="non-ascii" title="Not a plain ASCII character">\u0430<small>U+0430</small></mark>llory',
    );
    expect(html).toContain('data-testid="trusted-marked"');
    expect(shownValue('mallory').marked).toBe(false);
  });

  it('leaves main’s own typographic signs alone (no note for them)', () => {
    const html = confirmPageHtml(view([{ label: 'From', value: 'Main · spot — 1,000 USDT → desk_ops…' }]));
    expect(readable(html)).toContain('Main · spot — 1,000 USDT → desk_ops…');
    expect(html).not.toContain('<mark');
    expect(html).not.toContain('trusted-marked');
  });

  it('escapes markup in every value, label, note and title', () => {
    const html = confirmPageHtml({
      ...view([{ label: 'A<b>', value: '<script>alert(1)</script>' }], 'T <img src=x>'),
      note: '"><script>',
    });
    expect(html).not.toMatch(/<script>|<img|<b>/);
    expect(html.match(/<script/g)).toHaveLength(1); // the page's own script file only
  });

  it('a batch in two currencies asks for each total: one field per currency, the button off until all are typed', () => {
    const html = confirmPageHtml({
      ...view([], 'Run a batch of 3 rows'),
      typedAmounts: [
        { amount: '60', currency: 'USDT' },
        { amount: '0.5', currency: 'BTC' },
      ],
    });
    expect(html.match(/data-testid="trusted-typed"/g)).toHaveLength(2);
    expect(readable(html)).toContain('Type the total in USDT, 60 USDT, to confirm');
    expect(readable(html)).toContain('Type the total in BTC, 0.5 BTC, to confirm');
    expect(html).toMatch(/data-currency="BTC"[^>]*data-amount="0.5"/);
    expect(html).toMatch(/data-testid="trusted-accept" disabled>/);
  });

  it('the new-secret page shows the secret isolated, and loads its own script only', () => {
    const html = secretPageHtml({
      title: 'New API key for sub-account 7',
      rows: [{ label: 'Key', value: 'abcdef0123456789' }],
      secrets: [{ label: 'Secret', value: 'f00dfeed' }],
    });
    expect(html).toContain('<code data-testid="trusted-secret-value"><bdi dir="ltr">f00dfeed</bdi></code>');
    expect(html).toContain('<script src="secret.js"></script>');
  });

  it('is served with its CSP, no caching, and an agent cluster of its own origin', () => {
    expect(trustedPageHeaders('text/html; charset=utf-8')).toMatchObject({
      'content-security-policy': expect.stringContaining("default-src 'none'"),
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
    });
  });
});
