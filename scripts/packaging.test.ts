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

  it('turns the inspector on only in the explicitly named end-to-end build', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.dist).not.toContain('enableNodeCliInspectArguments=true');
    const withInspector = Object.entries(scripts).filter(([, command]) => command.includes('Inspect'));
    expect(withInspector.map(([name]) => name)).toEqual(['dist:e2e']);
  });

  it('the production main bundle trusts a dev server only when not packaged', () => {
    const main = readFileSync(join(ROOT, 'electron/main/index.ts'), 'utf8');
    expect(main).toMatch(/app\.isPackaged \? undefined : process\.env\.ELECTRON_RENDERER_URL/);
  });
});
