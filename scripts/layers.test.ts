/**
 * The layer rule (.dependency-cruiser.cjs) really fails `npm run lint` on a forbidden import.
 *
 * The repository's sources, package.json, tsconfigs and dependency-cruiser config are copied into a
 * temporary folder outside the work tree (node_modules and tools/depcruise are linked, not copied);
 * forbidden imports are written into that copy only, and the very script `npm run lint` runs for
 * the layer part (`lint:layers`) runs there. The copy is removed afterwards whatever happens, and
 * since it never lives in the repository a crash cannot leave a stray file behind.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Not source: never copied (node_modules and the checker's install are linked instead). */
const SKIP = new Set([
  'node_modules',
  '.git',
  'out',
  'dist',
  'test-results',
  'playwright-report',
  'coverage',
  'artifacts',
  'results',
  '.data',
  '.test-summary',
]);

// Spelled so that no scanner of this file mistakes the fixtures for imports of its own.
const IMPORT = ['im', 'port'].join('');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Run {
  readonly status: number | null;
  readonly output: string;
}

/** `npm run lint:layers` in `dir`: the same script `npm run lint` runs after Biome. */
const lintLayers = (dir: string): Run => {
  const run = spawnSync('npm', ['run', '--silent', 'lint:layers'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

/** A forbidden import: the file (in the copy) and the rule that must name it. */
interface Case {
  readonly file: string;
  readonly source: string;
  readonly rule: string;
  readonly target: string;
}

const cases: Case[] = [
  // The examples: the core importing the renderer and Electron main, api/ importing movements/.
  {
    file: 'electron/core/movements/__forbidden_renderer.ts',
    source: `${IMPORT} { screens } from '../../../renderer/src/lib/navigation';\nexport const x = screens;\n`,
    rule: 'core-imports-no-shell',
    target: 'renderer/src/lib/navigation.ts',
  },
  {
    file: 'electron/core/profiles/__forbidden_main.ts',
    source: `${IMPORT} * as channels from '../../main/channels';\nexport const x = channels;\n`,
    rule: 'core-imports-no-shell',
    target: 'electron/main/channels.ts',
  },
  {
    file: 'electron/core/api/__forbidden.ts',
    source: `${IMPORT} type { Movements } from '../movements/types';\nexport type X = Movements;\n`,
    rule: 'core-api-is-infrastructure',
    target: 'electron/core/movements/types.ts',
  },
  // The core's inner direction, one step per layer (type-only imports count).
  {
    file: 'electron/core/journal/__forbidden.ts',
    source: `${IMPORT} type { ServiceContext } from '../services/context';\nexport type X = ServiceContext;\n`,
    rule: 'core-journal-is-infrastructure',
    target: 'electron/core/services/context.ts',
  },
  {
    file: 'electron/core/keychain/__forbidden.ts',
    source: `${IMPORT} type { PlatformApi } from '../api/platform';\nexport type X = PlatformApi;\n`,
    rule: 'core-keychain-is-infrastructure',
    target: 'electron/core/api/platform.ts',
  },
  {
    // team/ may import two leaves of operators/ (scrypt, the role ranking), not the rest of it.
    file: 'electron/core/team/__forbidden.ts',
    source: `${IMPORT} type { Operators } from '../operators/operators';\nexport type X = Operators;\n`,
    rule: 'core-team-is-infrastructure',
    target: 'electron/core/operators/operators.ts',
  },
  {
    file: 'electron/core/trade/__forbidden.ts',
    source: `${IMPORT} type { ServiceContext } from '../services/context';\nexport type X = ServiceContext;\n`,
    rule: 'core-engine-below-services',
    target: 'electron/core/services/context.ts',
  },
  {
    file: 'electron/core/services/__forbidden.ts',
    source: `${IMPORT} { createDispatcher } from '../ipc/dispatcher';\nexport const x = createDispatcher;\n`,
    rule: 'core-services-below-ipc',
    target: 'electron/core/ipc/dispatcher.ts',
  },
  {
    file: 'electron/core/watchers/__forbidden_root.ts',
    source: `${IMPORT} { createCore } from '../core';\nexport const x = createCore;\n`,
    rule: 'core-root-only-from-hosts',
    target: 'electron/core/core.ts',
  },
  {
    file: 'electron/core/unplaced/__forbidden.ts',
    source: `${IMPORT} { DeskFailure } from '../errors';\nexport const x = DeskFailure;\n`,
    rule: 'core-folder-has-a-layer',
    target: 'electron/core/errors.ts',
  },
  {
    file: 'electron/shell/__forbidden.ts',
    source: `${IMPORT} { app } from 'electron';\nexport const x = app;\n`,
    rule: 'only-electron-glue-imports-electron',
    target: 'node_modules/electron/index.js',
  },
  // The other folders.
  {
    file: 'shared/__forbidden_fs.ts',
    source: `${IMPORT} { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n`,
    rule: 'shared-no-node-builtins',
    target: 'fs',
  },
  {
    file: 'shared/__forbidden_react.ts',
    source: `${IMPORT} { useState } from 'react';\nexport const x = useState;\n`,
    rule: 'shared-only-zod-and-decimal',
    target: 'node_modules/react/index.js',
  },
  {
    file: 'shared/__forbidden_layer.ts',
    source: `${IMPORT} { DeskFailure } from '../electron/core/errors';\nexport const x = DeskFailure;\n`,
    rule: 'shared-imports-only-shared',
    target: 'electron/core/errors.ts',
  },
  {
    file: 'renderer/src/__forbidden.ts',
    source: `${IMPORT} type { Core } from '../../electron/core/core';\nexport type X = Core;\n`,
    rule: 'renderer-imports-only-renderer-and-shared',
    target: 'electron/core/core.ts',
  },
  {
    file: 'renderer/src/__forbidden_path.ts',
    source: `${IMPORT} { join } from 'node:path';\nexport const x = join;\n`,
    rule: 'renderer-no-node-builtins',
    target: 'path',
  },
  {
    file: 'sandbox/__forbidden.ts',
    source: `${IMPORT} { DeskFailure } from '../electron/core/errors';\nexport const x = DeskFailure;\n`,
    rule: 'sandbox-stands-alone',
    target: 'electron/core/errors.ts',
  },
  {
    file: 'sandbox/__forbidden.test.ts',
    source: `${IMPORT} { createCore } from '../electron/core/core';\nexport const x = createCore;\n`,
    rule: 'sandbox-tests-use-only-the-api-client',
    target: 'electron/core/core.ts',
  },
  {
    file: 'electron/preload/__forbidden.ts',
    source: `${IMPORT} { createCore } from '../core/core';\nexport const x = createCore;\n`,
    rule: 'preload-imports-only-shared-and-channels',
    target: 'electron/core/core.ts',
  },
  {
    file: 'electron/main/__forbidden.ts',
    source: `${IMPORT} { startSandbox } from '../../bench/app';\nexport const x = startSandbox;\n`,
    rule: 'app-never-imports-tooling',
    target: 'bench/app.ts',
  },
  {
    file: 'electron/core/history/__forbidden_testing.ts',
    source: `${IMPORT} * as timers from '../testing/timers';\nexport const x = timers;\n`,
    rule: 'no-test-code-in-production',
    target: 'electron/core/testing/timers.ts',
  },
  {
    // The core's tests may start the sandbox's test harness; its production code may not.
    file: 'electron/core/services/__forbidden_harness.ts',
    source: `${IMPORT} * as harness from '../../../sandbox/testing/harness';\nexport const x = harness;\n`,
    rule: 'no-test-code-in-production',
    target: 'sandbox/testing/harness.ts',
  },
  // Whole-graph rules.
  {
    file: 'electron/core/api/__cycle_a.ts',
    source: `${IMPORT} { b } from './__cycle_b';\nexport const a = () => b;\n`,
    rule: 'no-circular',
    target: 'electron/core/api/__cycle_b.ts',
  },
  {
    file: 'scripts/__forbidden.ts',
    source: `${IMPORT} { nothing } from './does-not-exist';\nexport const x = nothing;\n`,
    rule: 'not-to-unresolvable',
    target: './does-not-exist',
  },
];

/** Files a case needs besides its own (the other half of the cycle). */
const helpers: Record<string, string> = {
  'electron/core/api/__cycle_b.ts': `${IMPORT} { a } from './__cycle_a';\nexport const b = () => a;\n`,
};

describe('the layer rule (dependency-cruiser, npm run lint)', () => {
  let copy = '';

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'desk-layers-'));
    try {
      cpSync(repo, copy, {
        recursive: true,
        filter: (source) => {
          const rel = relative(repo, source);
          return rel === '' || (!SKIP.has(basename(source)) && rel !== 'tools');
        },
      });
      symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'), 'dir');
      mkdirSync(join(copy, 'tools'));
      symlinkSync(join(repo, 'tools', 'depcruise'), join(copy, 'tools', 'depcruise'), 'dir');
    } catch (error) {
      rmSync(copy, { recursive: true, force: true });
      throw error;
    }
  });

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('is what `npm run lint` runs after Biome, and dependency-cruiser is installed', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toBe('biome check . && npm run --silent lint:layers');
    expect(pkg.scripts['lint:layers']).toContain('depcruise --config .dependency-cruiser.cjs .');
    // `npm ci` (postinstall) or `npm run setup` installs it.
    expect(existsSync(join(repo, 'tools/depcruise/node_modules/.bin/depcruise'))).toBe(true);
  });

  it('passes the tree as it is', () => {
    const run = lintLayers(copy);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  it('fails on a forbidden import in each layer, naming the rule, the file and the import', () => {
    const files = [...cases.map(({ file, source }) => [file, source] as const), ...Object.entries(helpers)];
    for (const [file, source] of files) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      writeFileSync(join(copy, file), source);
    }
    try {
      const run = lintLayers(copy);
      expect(run.status).not.toBe(0);
      for (const { file, rule, target } of cases) {
        expect(run.output, `${file} → ${target}`).toMatch(
          new RegExp(`error ${rule}: ${escapeRegExp(file)} →\\s*(\\n\\s*)?${escapeRegExp(target)}`),
        );
      }
    } finally {
      for (const [file] of files) rmSync(join(copy, file), { force: true });
      rmSync(join(copy, 'electron/core/unplaced'), { recursive: true, force: true });
    }
  });
});
