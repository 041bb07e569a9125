/**
 * What a shipped build allows, read from electron-builder's configuration: a release build must
 * not let anyone attach a debugger to main or run it as plain Node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const builder = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
const fuse = (name: string): string | undefined => new RegExp(`^\\s+${name}:\\s*(\\w+)\\s*$`, 'm').exec(builder)?.[1];

describe('packaging', () => {
  it('ships with the inspector, run-as-node and NODE_OPTIONS fuses off and asar integrity on', () => {
    expect(fuse('enableNodeCliInspectArguments')).toBe('false');
    expect(fuse('runAsNode')).toBe('false');
    expect(fuse('enableNodeOptionsEnvironmentVariable')).toBe('false');
    expect(fuse('enableEmbeddedAsarIntegrityValidation')).toBe('true');
    expect(fuse('onlyLoadAppFromAsar')).toBe('true');
  });

  it('turns the inspector on only in the end-to-end build, which has its own name, app id and folder', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.dist).toMatch(/electron-builder --config electron-builder\.yml$/);
    expect(scripts['dist:e2e']).toMatch(/electron-builder --config electron-builder\.e2e\.yml$/);
    // No script turns a fuse on from the command line (that would build a release-named app with it).
    expect(Object.values(scripts).filter((command) => command.includes('electronFuses'))).toEqual([]);
    const e2e = readFileSync(join(ROOT, 'electron-builder.e2e.yml'), 'utf8');
    const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+?)\\s*$`, 'm').exec(e2e)?.[1];
    expect(field('extends')).toBe('electron-builder.yml');
    expect(field('enableNodeCliInspectArguments')).toBe('true');
    expect(field('output')).toBe('dist-e2e');
    expect(field('output')).not.toBe(/^\s+output:\s*(\S+)/m.exec(builder)?.[1]);
    expect(field('productName')).not.toBe(/^productName:\s*(.+)$/m.exec(builder)?.[1]);
    expect(field('appId')).not.toBe(/^appId:\s*(.+)$/m.exec(builder)?.[1]);
  });

  it('the production main bundle trusts a dev server only when not packaged', () => {
    const main = readFileSync(join(ROOT, 'electron/main/index.ts'), 'utf8');
    expect(main).toMatch(/app\.isPackaged \? undefined : process\.env\.ELECTRON_RENDERER_URL/);
  });
});
