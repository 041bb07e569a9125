import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, clearStamp, needsBuild, sourceFingerprint, writeStamp } from './buildStamp';

const roots: string[] = [];
const tempDir = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  return root;
};
const write = (root: string, path: string, text: string): void => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project with one file in each kind of source. */
const project = (): string =>
  tempDir({
    'electron/main/index.ts': 'export {};\n',
    'renderer/index.html': '<div id="root"></div>\n',
    'renderer/src/app.tsx': 'export const App = () => null;\n',
    'shared/contract/ops.ts': 'export const ops = [];\n',
    'sandbox/server.ts': 'export const startSandbox = () => {};\n',
    'assets/icon.svg': '<svg/>\n',
    'package.json': '{}\n',
    'package-lock.json': '{}\n',
    'electron.vite.config.ts': 'export default {};\n',
    'tsconfig.json': '{}\n',
    'tsconfig.node.json': '{}\n',
    'docs/notes.md': 'not read by the build\n',
  });

describe('sourceFingerprint', () => {
  it('is stable while nothing changes', () => {
    const root = project();
    expect(sourceFingerprint(root)).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceFingerprint(root)).toBe(sourceFingerprint(root));
  });

  it('changes when a file is edited, even to the same size', () => {
    const root = project();
    const before = sourceFingerprint(root);
    write(root, 'shared/contract/ops.ts', 'export const opz = [];\n');
    // Same size: only the mtime tells; set it explicitly so the test does not depend on timer resolution.
    utimesSync(join(root, 'shared/contract/ops.ts'), new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it('changes when a file is added or deleted, in every source', () => {
    for (const path of [
      'electron/preload/index.ts',
      // The core and the Chromium shell live beside electron/ (main bundles both; npm start runs out/main/shellCli.js).
      'core/balances/x.ts',
      'shell/x.ts',
      'renderer/src/new.tsx',
      'shared/x.ts',
      'sandbox/x.ts',
      'assets/x.png',
      'tsconfig.web.json',
    ]) {
      const root = project();
      const before = sourceFingerprint(root);
      write(root, path, '');
      const added = sourceFingerprint(root);
      expect(added, path).not.toBe(before);
      rmSync(join(root, path));
      expect(sourceFingerprint(root), path).not.toBe(added);
    }
    const root = project();
    const before = sourceFingerprint(root);
    rmSync(join(root, 'renderer/src/app.tsx'));
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it('changes when a renamed file keeps its size and mtime', () => {
    const root = project();
    const before = sourceFingerprint(root);
    renameSync(join(root, 'shared/contract/ops.ts'), join(root, 'shared/contract/ops2.ts'));
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it('ignores files the build does not read', () => {
    const root = project();
    const before = sourceFingerprint(root);
    write(root, 'docs/notes.md', 'edited\n');
    write(root, 'out/main/index.js', '');
    expect(sourceFingerprint(root)).toBe(before);
  });
});

describe('needsBuild', () => {
  const built = (): string => {
    const outDir = tempDir(Object.fromEntries(BUILD_OUTPUTS.map((file) => [file, ''])));
    writeStamp(outDir, 'abc');
    return outDir;
  };

  it('is false when the stamp matches and every output is there', () => {
    expect(needsBuild(built(), 'abc')).toBe(false);
  });

  it('is true when the sources changed since the stamp', () => {
    expect(needsBuild(built(), 'def')).toBe(true);
  });

  it('is true without a stamp (never built by npm start, or a build was interrupted)', () => {
    const outDir = built();
    clearStamp(outDir);
    expect(needsBuild(outDir, 'abc')).toBe(true);
    expect(needsBuild(join(outDir, 'missing'), 'abc')).toBe(true);
  });

  it.each(BUILD_OUTPUTS)('is true when %s is missing', (file) => {
    const outDir = built();
    rmSync(join(outDir, file));
    expect(needsBuild(outDir, 'abc')).toBe(true);
  });

  it('lists the outputs the build set-up writes', () => {
    expect(BUILD_OUTPUTS).toEqual(['main/index.js', 'main/shellCli.js', 'preload/index.cjs', 'renderer/index.html']);
  });
});
