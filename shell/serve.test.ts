import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RENDERER_CSP } from '../core/ipc/rendererPolicy';
import { answer, SHELL_ORIGIN } from './serve';

const root = mkdtempSync(join(tmpdir(), 'serve-'));
mkdirSync(join(root, 'renderer/assets'), { recursive: true });
writeFileSync(join(root, 'renderer/index.html'), '<!doctype html><title>desk</title>');
writeFileSync(join(root, 'renderer/assets/app.js'), 'console.log(1)');
writeFileSync(join(root, 'secret.txt'), 'do not serve');
const rendererDir = join(root, 'renderer');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the shell’s renderer answers', () => {
  it('serves files of the built renderer with the CSP', async () => {
    const page = await answer(rendererDir, 'GET', `${SHELL_ORIGIN}/`);
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toMatch(/^text\/html/);
    expect(page.headers['Content-Security-Policy']).toBe(RENDERER_CSP);
    const script = await answer(rendererDir, 'GET', `${SHELL_ORIGIN}/assets/app.js`);
    expect(script.headers['Content-Type']).toMatch(/^text\/javascript/);
    expect(String(script.body)).toBe('console.log(1)');
  });

  it('refuses anything but reads', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect((await answer(rendererDir, method, `${SHELL_ORIGIN}/index.html`)).status).toBe(405);
    }
  });

  it('never serves a file outside the renderer folder', async () => {
    // The URL parser folds "..", "%2e%2e" (→ 404: no such file inside); encoded slashes reach the guard (→ 403).
    for (const [path, status] of [
      ['/../secret.txt', 404],
      ['/%2e%2e/secret.txt', 404],
      ['/..%2fsecret.txt', 403],
      ['/assets/..%2f..%2fsecret.txt', 403],
      ['/assets/..%5c..%5csecret.txt', 403],
    ] as const) {
      const response = await answer(rendererDir, 'GET', `${SHELL_ORIGIN}${path}`);
      expect(response.status, path).toBe(status);
      expect(String(response.body)).not.toContain('do not serve');
    }
  });

  it('answers 404 for a missing file', async () => {
    expect((await answer(rendererDir, 'GET', `${SHELL_ORIGIN}/nope.js`)).status).toBe(404);
  });
});
