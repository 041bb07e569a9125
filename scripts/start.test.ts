import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary } from './start';

const roots: string[] = [];
const project = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), 'start-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('electronBinary (never triggers the download)', () => {
  it('is undefined when Electron’s binary was never fetched', () => {
    expect(electronBinary({}, project({ 'node_modules/electron/package.json': '{}' }))).toBeUndefined();
  });

  it('is undefined when path.txt names a binary that is not there', () => {
    expect(electronBinary({}, project({ 'node_modules/electron/path.txt': 'electron' }))).toBeUndefined();
  });

  it('finds the downloaded binary', () => {
    const root = project({ 'node_modules/electron/path.txt': 'electron', 'node_modules/electron/dist/electron': '' });
    expect(electronBinary({}, root)).toBe(join(root, 'node_modules/electron/dist/electron'));
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const root = project({ 'node_modules/electron/path.txt': 'electron', 'custom/electron': '' });
    expect(electronBinary({ ELECTRON_OVERRIDE_DIST_PATH: join(root, 'custom') }, root)).toBe(
      join(root, 'custom/electron'),
    );
    expect(electronBinary({ ELECTRON_OVERRIDE_DIST_PATH: join(root, 'missing') }, root)).toBeUndefined();
  });
});
