import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, RENDERER_CSP, rendererCspConnectingTo, rendererHeaders, resolveAsset } from './rendererPolicy';

const ROOT = resolve('/srv/renderer');

describe('resolveAsset', () => {
  it('maps request paths to files inside the renderer folder', () => {
    expect(resolveAsset(ROOT, '/')).toBe(join(ROOT, 'index.html'));
    expect(resolveAsset(ROOT, '/index.html')).toBe(join(ROOT, 'index.html'));
    expect(resolveAsset(ROOT, '/assets/index-abc.js')).toBe(join(ROOT, 'assets/index-abc.js'));
    expect(resolveAsset(ROOT, '/assets/')).toBe(join(ROOT, 'assets/index.html'));
    expect(resolveAsset(ROOT, '/a%20b.png')).toBe(join(ROOT, 'a b.png'));
  });

  it.each([
    '/../secret.txt',
    '/assets/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
    '/assets/..%5c..%5cwindows',
    '/index.html%00.png',
    '/%E0%A4%A', // malformed escape
    '/..',
  ])('refuses %s', (path) => {
    expect(resolveAsset(ROOT, path)).toBeUndefined();
  });

  it('does not treat a sibling folder with the same prefix as inside', () => {
    expect(resolveAsset(ROOT, '/../renderer-evil/x.js')).toBeUndefined();
  });
});

describe('renderer headers', () => {
  it('send a CSP without any network origin', () => {
    expect(RENDERER_CSP).toContain("connect-src 'none'");
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/https?:|ws:|\*/);
    expect(RENDERER_CSP).not.toContain('unsafe-eval');
    expect(rendererHeaders('text/html')['Content-Security-Policy']).toBe(RENDERER_CSP);
    expect(rendererHeaders('text/html')['X-Content-Type-Options']).toBe('nosniff');
  });

  it('let the Chromium shell’s page reach its one loopback lane and nothing else', () => {
    const csp = rendererHeaders('text/html', 'ws://127.0.0.1:45678')['Content-Security-Policy'] ?? '';
    expect(csp).toContain('connect-src ws://127.0.0.1:45678;');
    expect(csp.replace('ws://127.0.0.1:45678', '')).not.toMatch(/https?:|ws:|\*/);
    expect(csp.replace('connect-src ws://127.0.0.1:45678', "connect-src 'none'")).toBe(RENDERER_CSP);
    for (const wider of ['ws://127.0.0.1:*', 'ws://localhost:1', 'wss://127.0.0.1:1', 'ws://127.0.0.1:1 https:', '*']) {
      expect(() => rendererCspConnectingTo(wider), wider).toThrow();
    }
  });

  it('names content types by extension, opaque bytes otherwise', () => {
    expect(contentTypeOf('/x/index.html')).toMatch(/^text\/html/);
    expect(contentTypeOf('/x/a.JS')).toMatch(/^text\/javascript/);
    expect(contentTypeOf('/x/a.css')).toMatch(/^text\/css/);
    expect(contentTypeOf('/x/a.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('/x/README')).toBe('application/octet-stream');
  });
});
