/**
 * The layer rule (.dependency-cruiser.cjs) really fails `npm run lint` on a forbidden import, and
 * lets through what it means to allow.
 *
 * The rules run on a small fixture tree written into a temporary folder: a few files per layer,
 * each importing what its layer may import (the named exceptions and the tests' freedoms included),
 * and one planted forbidden import per rule. The very script `npm run lint` runs for the layer part
 * (`lint:layers`, with the repository's own config and tsconfig) runs there, and its errors must be
 * exactly the planted ones: each names its rule, file and import, and no allowed file is reported.
 * That the real tree passes is `npm run lint:layers` itself, part of `npm run lint`.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// Spelled so that no scanner of this file mistakes the fixtures for imports of its own.
const IMPORT = ['im', 'port'].join('');
const imports = (from: string) => `${IMPORT} * as used from '${from}';\nexport const x = used;\n`;
const importsType = (name: string, from: string) =>
  `${IMPORT} type { ${name} } from '${from}';\nexport type X = ${name};\n`;

/**
 * The allowed tree: each file imports what its layer may (so none is an orphan). Paths mirror the
 * repository's; the content is only the imports.
 */
const allowed: Record<string, string> = {
  // shared/: itself, zod and decimal.js.
  'shared/base.ts': `${IMPORT} { z } from 'zod';\nexport const base = z.string();\n`,
  'shared/money.ts': `${IMPORT} Decimal from 'decimal.js';\n${IMPORT} { base } from './base';\nexport const x = [Decimal, base];\n`,
  // renderer/: itself, shared/ and browser libraries.
  'renderer/src/lib/navigation.ts': imports('../../../shared/money'),
  // A screen imports ui/, lib/ and its own folder; the frame may import a screen.
  'renderer/src/ui/Notice.tsx': imports('../lib/navigation'),
  'renderer/src/screens/withdrawals/store.ts': `${IMPORT} { x } from '../../ui/Notice';\nexport const useWithdrawalsUi = x;\n`,
  'renderer/src/screens/withdrawals/index.ts': `${IMPORT} { useWithdrawalsUi } from './store';\nexport const x = useWithdrawalsUi;\n`,
  'renderer/src/frame/Frame.tsx': `${IMPORT} { x } from '../screens/withdrawals';\nexport const Frame = x;\n`,
  'renderer/src/app.ts': `${IMPORT} { useState } from 'react';\n${IMPORT} { x } from './lib/navigation';\n${IMPORT} { Frame } from './frame/Frame';\nexport const y = [useState, x, Frame];\n`,
  // core, bottom up: the base, the infrastructure, the engine, the handlers, ipc, the root.
  'core/errors.ts': imports('../shared/base'),
  'core/types.ts': imports('../shared/base'),
  'core/api/client.ts': imports('../errors'),
  'core/api/platform.ts': imports('./client'),
  // The named exception: the audit log shares the API client's redaction rule.
  'core/journal/audit.ts': imports('../api/client'),
  'core/keychain/keyStore.ts': imports('../errors'),
  'core/operators/passphrase.ts': imports('../errors'),
  'core/operators/access.ts': imports('../types'),
  'core/operators/operators.ts': `${IMPORT} { x as a } from './passphrase';\n${IMPORT} { x as b } from './access';\nexport const x = [a, b];\n`,
  // team/ with its three named leaves.
  'core/team/database.ts': `${IMPORT} { x as a } from '../keychain/keyStore';\n${IMPORT} { x as b } from '../operators/passphrase';\n${IMPORT} { x as c } from '../operators/access';\nexport const x = [a, b, c];\n`,
  'core/movements/types.ts': `${IMPORT} { x as a } from '../api/platform';\n${IMPORT} { x as b } from '../journal/audit';\n${IMPORT} { x as c } from '../team/database';\nexport const x = [a, b, c];\n`,
  'core/trade/feed.ts': `${IMPORT} { x as a } from '../movements/types';\n${IMPORT} { x as b } from '../operators/operators';\nexport const x = [a, b];\n`,
  // Only profiles/ starts the embedded sandbox.
  'core/profiles/sandbox.ts': imports('../../sandbox/server'),
  // What every handler gets: an engine-level file at the core's root.
  'core/context.ts': `${IMPORT} { x as a } from './trade/feed';\n${IMPORT} { x as b } from './profiles/sandbox';\n${IMPORT} { x as c } from './keychain/keyStore';\nexport const x = [a, b, c];\n`,
  // An area's handlers sit beside its domain, may call another area's handlers; their tests may too.
  'core/trade/handlers.ts': `${IMPORT} { x as a } from './feed';\n${IMPORT} { x as b } from '../context';\nexport const x = [a, b];\n`,
  'core/trade/handlers.test.ts': `${IMPORT} { x as a } from './handlers';\n${IMPORT} { x as b } from '../testing/timers';\nexport const x = [a, b];\n`,
  'core/operators/controls.property.test.ts': `${IMPORT} { x as a } from './operators';\n${IMPORT} { x as b } from '../trade/handlers';\nexport const x = [a, b];\n`,
  'core/internals.ts': imports('./trade/handlers'),
  'core/ipc/appLock.ts': imports('../../shared/base'),
  'core/ipc/events.ts': imports('../../shared/base'),
  // The named exception: the app.* handlers name the lock's type only.
  'core/app/handlers.ts': `${IMPORT} type { x as Lock } from '../ipc/appLock';\n${IMPORT} { x as a } from '../context';\n${IMPORT} { x as b } from '../internals';\nexport type L = typeof Lock;\nexport const x = [a, b];\n`,
  'core/ipc/dispatcher.ts': `${IMPORT} { x as a } from '../app/handlers';\n${IMPORT} { x as b } from './appLock';\n${IMPORT} { x as c } from './events';\nexport const x = [a, b, c];\n`,
  'core/core.ts': imports('./ipc/dispatcher'),
  'core/host/coreProcess.ts': imports('../core'),
  // Test support builds whole cores; tests may use it, core.ts and the sandbox's harness.
  'core/testing/timers.ts': imports('../core'),
  'core/watchers/watchers.test.ts': `${IMPORT} { x as a } from '../testing/timers';\n${IMPORT} { x as b } from '../../sandbox/testing/harness';\n${IMPORT} { x as c } from '../core';\nexport const x = [a, b, c];\n`,
  // The shells.
  'shell/shell.ts': imports('../core/host/coreProcess'),
  'electron/main/channels.ts': imports('../../shared/base'),
  'electron/main/main.ts': `${IMPORT} { app } from 'electron';\n${IMPORT} { x as a } from './channels';\n${IMPORT} { x as b } from '../../core/host/coreProcess';\n${IMPORT} { x as c } from '../../shell/shell';\nexport const x = [app, a, b, c];\n`,
  'electron/preload/preload.ts': `${IMPORT} { contextBridge } from 'electron';\n${IMPORT} { x as a } from '../main/channels';\n${IMPORT} { base } from '../../shared/base';\nexport const x = [contextBridge, a, base];\n`,
  // sandbox/ stands alone; its tests may drive it with the app's API client.
  'sandbox/server.ts': imports('../shared/base'),
  'sandbox/testing/harness.ts': imports('../server'),
  'sandbox/server.test.ts': `${IMPORT} { x as a } from '../core/api/client';\n${IMPORT} { x as b } from './testing/harness';\nexport const x = [a, b];\n`,
  // Tooling.
  'bench/app.ts': imports('../sandbox/server'),
  'e2e/app.spec.ts': imports('../bench/app'),
  'scripts/tool.ts': imports('../shared/base'),
  // bench/browser/ is bundled like the renderer.
  'bench/browser/page.ts': `${IMPORT} { y } from '../../renderer/src/app';\n${IMPORT} { base } from '../../shared/base';\nexport const x = [y, base];\n`,
};

/** A planted forbidden import: the file, the rule that must name it and the import it must name. */
interface Case {
  readonly file: string;
  readonly source: string;
  /** Every rule that must name this import (some imports break more than one). */
  readonly rules: readonly string[];
  readonly target: string;
}

const cases: Case[] = [
  // The core importing the renderer and Electron main; api/ importing movements/.
  {
    file: 'core/movements/__forbidden_renderer.ts',
    source: imports('../../renderer/src/lib/navigation'),
    rules: ['core-imports-no-shell', 'core-engine-below-handlers'],
    target: 'renderer/src/lib/navigation.ts',
  },
  {
    file: 'core/profiles/__forbidden_main.ts',
    source: imports('../../electron/main/channels'),
    rules: ['core-imports-no-shell', 'core-engine-below-handlers'],
    target: 'electron/main/channels.ts',
  },
  {
    file: 'core/api/__forbidden.ts',
    source: importsType('x', '../movements/types'),
    rules: ['core-api-is-infrastructure'],
    target: 'core/movements/types.ts',
  },
  // The core's inner direction, one step per layer (type-only imports count).
  {
    file: 'core/journal/__forbidden.ts',
    source: importsType('x', '../context'),
    rules: ['core-journal-is-infrastructure'],
    target: 'core/context.ts',
  },
  {
    file: 'core/keychain/__forbidden.ts',
    source: importsType('x', '../api/platform'),
    rules: ['core-keychain-is-infrastructure'],
    target: 'core/api/platform.ts',
  },
  {
    // team/ may import two leaves of operators/ (scrypt, the role ranking), not the rest of it.
    file: 'core/team/__forbidden.ts',
    source: importsType('x', '../operators/operators'),
    rules: ['core-team-is-infrastructure'],
    target: 'core/operators/operators.ts',
  },
  {
    file: 'core/trade/__forbidden.ts',
    source: importsType('x', './handlers'),
    rules: ['core-engine-never-imports-handlers'],
    target: 'core/trade/handlers.ts',
  },
  {
    // A test may call its area's handlers, but not reach above them.
    file: 'core/trade/__forbidden.test.ts',
    source: imports('../ipc/events'),
    rules: ['core-engine-tests-may-call-their-handlers'],
    target: 'core/ipc/events.ts',
  },
  {
    file: 'core/trade/handlers.ts',
    source: imports('../ipc/dispatcher'),
    rules: ['core-handlers-below-ipc'],
    target: 'core/ipc/dispatcher.ts',
  },
  {
    // app/handlers.ts may name the lock's type only (the real tree does), and nothing else of ipc/.
    file: 'core/app/handlers.ts',
    source: `${IMPORT} { x as lock } from '../ipc/appLock';\nexport const z = lock;\n`,
    rules: ['core-handlers-app-lock-type-only'],
    target: 'core/ipc/appLock.ts',
  },
  {
    file: 'core/app/handlers.ts',
    source: `${IMPORT} { x as events } from '../ipc/events';\nexport const y = events;\n`,
    rules: ['core-handlers-app-lock-exception'],
    target: 'core/ipc/events.ts',
  },
  {
    file: 'core/ipc/__forbidden.ts',
    source: imports('../host/coreProcess'),
    rules: ['core-ipc-below-root'],
    target: 'core/host/coreProcess.ts',
  },
  {
    file: 'core/errors.ts',
    source: `${allowed['core/errors.ts']}${IMPORT} { x as access } from './operators/access';\nexport const y = access;\n`,
    rules: ['core-base-imports-only-shared'],
    target: 'core/operators/access.ts',
  },
  {
    file: 'core/watchers/__forbidden_root.ts',
    source: imports('../core'),
    rules: ['core-root-only-from-hosts'],
    target: 'core/core.ts',
  },
  {
    file: 'core/trade/__forbidden_sandbox.ts',
    source: imports('../../sandbox/server'),
    rules: ['core-only-profiles-start-the-sandbox'],
    target: 'sandbox/server.ts',
  },
  {
    file: 'core/unplaced/__forbidden.ts',
    source: imports('../errors'),
    rules: ['core-folder-has-a-layer'],
    target: 'core/errors.ts',
  },
  {
    file: 'shell/__forbidden.ts',
    source: `${IMPORT} { app } from 'electron';\nexport const x = app;\n`,
    rules: ['only-electron-glue-imports-electron'],
    target: 'node_modules/electron/index.js',
  },
  {
    file: 'shell/__forbidden_renderer.ts',
    source: imports('../renderer/src/app'),
    rules: ['shell-imports-no-electron-glue'],
    target: 'renderer/src/app.ts',
  },
  {
    file: 'electron/main/__forbidden_renderer.ts',
    source: imports('../../renderer/src/app'),
    rules: ['main-imports-no-renderer'],
    target: 'renderer/src/app.ts',
  },
  // The other folders.
  {
    file: 'shared/__forbidden_fs.ts',
    source: `${IMPORT} { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n`,
    rules: ['shared-no-node-builtins'],
    target: 'fs',
  },
  {
    file: 'shared/__forbidden_react.ts',
    source: `${IMPORT} { useState } from 'react';\nexport const x = useState;\n`,
    rules: ['shared-only-zod-and-decimal'],
    target: 'node_modules/react/index.js',
  },
  {
    file: 'shared/__forbidden_layer.ts',
    source: imports('../core/errors'),
    rules: ['shared-imports-only-shared'],
    target: 'core/errors.ts',
  },
  {
    file: 'renderer/src/__forbidden.ts',
    source: importsType('x', '../../core/core'),
    rules: ['renderer-imports-only-renderer-and-shared'],
    target: 'core/core.ts',
  },
  {
    file: 'renderer/src/__forbidden_path.ts',
    source: `${IMPORT} { join } from 'node:path';\nexport const x = join;\n`,
    rules: ['renderer-no-node-builtins'],
    target: 'path',
  },
  // A screen builds from ui/, lib/ and its own folder: never another screen's insides or the frame.
  {
    file: 'renderer/src/screens/deposits/__forbidden_screen.ts',
    source: `${IMPORT} { useWithdrawalsUi } from '../withdrawals/store';\nexport const x = useWithdrawalsUi;\n`,
    rules: ['screens-import-only-kit-lib-and-own-folder'],
    target: 'renderer/src/screens/withdrawals/store.ts',
  },
  {
    file: 'renderer/src/screens/settings/__forbidden_frame.ts',
    source: `${IMPORT} { Frame } from '../../frame/Frame';\nexport const x = Frame;\n`,
    rules: ['screens-import-only-kit-lib-and-own-folder'],
    target: 'renderer/src/frame/Frame.tsx',
  },
  {
    file: 'sandbox/__forbidden.ts',
    source: imports('../core/errors'),
    rules: ['sandbox-stands-alone'],
    target: 'core/errors.ts',
  },
  {
    file: 'sandbox/__forbidden.test.ts',
    source: imports('../core/core'),
    rules: ['sandbox-tests-use-only-the-api-client'],
    target: 'core/core.ts',
  },
  {
    file: 'electron/preload/__forbidden.ts',
    source: imports('../../core/core'),
    rules: ['preload-imports-only-shared-and-channels'],
    target: 'core/core.ts',
  },
  {
    file: 'electron/main/__forbidden.ts',
    source: imports('../../bench/app'),
    rules: ['app-never-imports-tooling', 'main-imports-no-renderer', 'nothing-imports-bench-or-e2e'],
    target: 'bench/app.ts',
  },
  {
    file: 'scripts/__forbidden_bench.ts',
    source: imports('../bench/app'),
    rules: ['nothing-imports-bench-or-e2e'],
    target: 'bench/app.ts',
  },
  {
    file: 'core/history/__forbidden_testing.ts',
    source: imports('../testing/timers'),
    rules: ['no-test-code-in-production'],
    target: 'core/testing/timers.ts',
  },
  {
    // The core's tests may start the sandbox's test harness; its production code may not.
    file: 'core/funding/__forbidden_harness.ts',
    source: imports('../../sandbox/testing/harness'),
    rules: ['no-test-code-in-production', 'core-only-profiles-start-the-sandbox'],
    target: 'sandbox/testing/harness.ts',
  },
  {
    file: 'bench/browser/__forbidden.ts',
    source: imports('../app'),
    rules: ['bench-browser-is-a-web-page'],
    target: 'bench/app.ts',
  },
  {
    file: 'bench/browser/__forbidden_fs.ts',
    source: `${IMPORT} { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n`,
    rules: ['bench-browser-no-node-builtins'],
    target: 'fs',
  },
  // Whole-graph rules.
  {
    file: 'core/api/__cycle_a.ts',
    source: `${IMPORT} { b } from './__cycle_b';\nexport const a = () => b;\n`,
    rules: ['no-circular'],
    target: 'core/api/__cycle_b.ts',
  },
  {
    file: 'scripts/__forbidden.ts',
    source: imports('./does-not-exist'),
    rules: ['not-to-unresolvable'],
    target: './does-not-exist',
  },
  {
    // Installed (a dependency of a dependency), but not in package.json.
    file: 'scripts/__forbidden_undeclared.ts',
    source: `${IMPORT} { WebSocket } from 'ws';\nexport const x = WebSocket;\n`,
    rules: ['no-undeclared-package'],
    target: 'node_modules/ws/wrapper.mjs',
  },
];

/** The other half of the planted cycle (reported once, from its first file). */
const CYCLE_B = {
  'core/api/__cycle_b.ts': `${IMPORT} { a } from './__cycle_a';\nexport const b = () => a;\n`,
};

/** A file nothing imports and that imports nothing. */
const ORPHAN = 'core/api/__orphan.ts';

/** Every `error <rule>: <from> → <to>` of dependency-cruiser's output (an orphan has no `→ <to>`). */
const errorsIn = (output: string): string[] =>
  [...output.matchAll(/error (\S+): (\S+)(?:\s*→\s*(\S+))?/g)].map(([, rule, from, to]) =>
    to === undefined ? `${rule}: ${from}` : `${rule}: ${from} → ${to}`,
  );

describe('the layer rule (dependency-cruiser, npm run lint)', () => {
  let tree = '';

  /**
   * `npm run lint:layers` in the fixture tree: the same script `npm run lint` runs after Biome, run
   * by the shell as npm would (its command names dependency-cruiser by path), without npm's own
   * start-up (0.3 s of CPU).
   */
  const lintLayers = () => {
    const run = spawnSync('sh', ['-c', pkg.scripts['lint:layers'] as string], {
      cwd: tree,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'desk-layers-'));
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(tree, file)), { recursive: true });
      writeFileSync(join(tree, file), text);
    };
    // The fixture declares only the packages its files import: the script and the config are the repository's.
    const used = ['zod', 'decimal.js', 'react', 'electron'];
    const version = (name: string) => pkg.dependencies[name] ?? pkg.devDependencies[name] ?? '*';
    write(
      'package.json',
      JSON.stringify({
        name: 'layers-fixture',
        private: true,
        scripts: { 'lint:layers': pkg.scripts['lint:layers'] },
        dependencies: Object.fromEntries(used.map((name) => [name, version(name)])),
      }),
    );
    copyFileSync(join(repo, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
    copyFileSync(join(repo, 'tsconfig.base.json'), join(tree, 'tsconfig.base.json'));
    symlinkSync(join(repo, 'node_modules'), join(tree, 'node_modules'), 'dir');
    mkdirSync(join(tree, 'tools'));
    symlinkSync(join(repo, 'tools', 'depcruise'), join(tree, 'tools', 'depcruise'), 'dir');
    for (const [file, text] of Object.entries(allowed)) write(file, text);
    // A file with several planted imports gets them all.
    const planted = new Map<string, string>();
    for (const { file, source } of cases) planted.set(file, `${planted.get(file) ?? ''}${source}`);
    for (const [file, text] of planted) write(file, text);
    for (const [file, text] of Object.entries(CYCLE_B)) write(file, text);
    write(ORPHAN, 'export const nothing = 0;\n');
  });

  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it('is what `npm run lint` runs after Biome, and dependency-cruiser is installed', () => {
    expect(pkg.scripts.lint).toMatch(/^biome check \. && npm run --silent lint:layers( |$)/);
    expect(pkg.scripts['lint:layers']).toContain('depcruise --config .dependency-cruiser.cjs .');
    // `npm ci` (postinstall) or `npm run setup` installs it.
    expect(existsSync(join(repo, 'tools/depcruise/node_modules/.bin/depcruise'))).toBe(true);
  });

  it('fails on each planted import, naming its rule, file and import, and on nothing the layers allow', () => {
    const run = lintLayers();
    expect(run.status, run.output).not.toBe(0);
    const expected = [
      ...cases.flatMap(({ file, rules, target }) => rules.map((rule) => `${rule}: ${file} → ${target}`)),
      `no-orphans: ${ORPHAN}`,
    ];
    expect(errorsIn(run.output).sort()).toEqual(expected.sort());
  });

  it('has a planted import for every rule of the config', async () => {
    const config = (await import(join(repo, '.dependency-cruiser.cjs'))) as {
      default: { forbidden: { name: string }[] };
    };
    const planted = new Set([...cases.flatMap((c) => c.rules), 'no-orphans']);
    const untested = config.default.forbidden.map((r) => r.name).filter((name) => !planted.has(name));
    expect(untested).toEqual([]);
  });
});
