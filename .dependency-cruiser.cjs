/**
 * The layer rule, checked by dependency-cruiser: `npm run lint:layers` (part of `npm run lint`).
 * The table and the core's inner direction are explained in docs/architecture.md, "Layers";
 * scripts/layers.test.ts proves on a small fixture tree that a forbidden import fails each rule
 * and that what the layers allow passes.
 *
 * Every path below is relative to the repository root. dependency-cruiser resolves each import the
 * way TypeScript and the bundlers do (relative paths, package "exports", `node:` built-ins), so a
 * rule is about the file an import reaches, not the way it is spelled; type-only imports count too
 * (`tsPreCompilationDeps`).
 *
 * Tests get more freedom only where written below, each with its reason.
 */

/** Test files, wherever they sit. */
const TESTS = '\\.(test|spec|typetest)\\.tsx?$';

/** The app's own code (what ships), as opposed to tooling (bench/, e2e/, scripts/, configs). */
const APP = '^(electron|core|shell|renderer|shared|sandbox)/';
const TOOLING = '^(bench|e2e|scripts)/';
/** Files at the repository root (vite, vitest, playwright configs). */
const ROOT_FILE = '^[^/]+$';

// --- the core's layers (core/), top to bottom -----------------------------------------------------
// host/ and core.ts   the composition root (core.ts builds everything) and what runs it in a child
//                     process (host/): may import the whole core.
// ipc/                dispatcher, events, app lock: may import the handlers and everything below.
// <area>/handlers.ts  the handlers of each contract area, beside that area's domain (a vertical
//                     slice: core/trade/handlers.ts answers trade.*): may import the engine and
//                     everything below, and other areas' handlers (internals.ts: what core.ts
//                     hands the profiles and activity handlers beyond the shared context).
// engine + profiles   every other file of the area folders (movements, trade, watchers, history,
//                     funding, …, and context.ts, what every handler gets): may import each other
//                     (never in a circle), api/, journal/, keychain/, the base and shared/, never a
//                     handlers.ts; only profiles/ starts the embedded sandbox.
// api/ journal/ keychain/  the infrastructure: each imports only itself, the base and shared/.
// team/               the team database (PostgreSQL; docs/team.md): infrastructure too, with two
//                     named leaves of other folders (see core-team-is-infrastructure).
// errors.ts types.ts scheduler.ts  the base: only shared/ (scheduler.ts: time, for every layer).
// testing/            test support (builds whole cores): imports anything, imported only by tests,
//                     other test support, bench/ and e2e/.
const CORE_TOP = '^core/(host/|core\\.ts$)';
const CORE_IPC = '^core/ipc/';
/** An area's handlers (and their own tests, which call them directly). */
const CORE_HANDLERS = '^core/[^/]+/handlers\\.(test\\.|integration\\.test\\.)?ts$|^core/internals\\.ts$';
const ENGINE_FOLDERS = [
  'movements',
  'trade',
  'watchers',
  'history',
  'funding',
  'transfers',
  'balances',
  'subAccounts',
  'notifications',
  'profiles',
  // Policies, the authorization pipeline and the trusted confirmation's view (docs/approvals.md).
  'policies',
  // The Approvals queue: what waits for a second person, who may decide it (docs/approvals.md).
  'approvals',
  // The domain commands that move money: precheck → authorize → journal and execute.
  'commands',
  // Bulk batches (docs/bulk.md): parsing, checking, the batch journal and its runner.
  'batches',
  // Operators and roles: who is signed in, passphrases (scrypt), what each role may call; the
  // control plane (control changes under four eyes).
  'operators',
  // This desk in a team (docs/team.md): the team's movements, approvals, control changes and
  // sender over the team database (team/), plugged into the commands, the queue and the controls.
  'teamDesk',
  // The app.* area: the data folder's files, opening links, the lock (handlers and their helpers).
  'app',
  // The audit log's view (Activity) and its trust: the chain's key and the export's signing key.
  'activity',
  // Sub-account API keys: create, change, delete (control changes), shown once in the shell's page.
  'keys',
  // The platform's rules read once per profile (currency chains, pairs, the STP group).
  'rules',
];
const CORE_ENGINE = `^core/(${ENGINE_FOLDERS.join('|')})/|^core/context\\.ts$`;
const CORE_API = '^core/api/';
const CORE_JOURNAL = '^core/journal/';
const CORE_KEYCHAIN = '^core/keychain/';
const CORE_TEAM = '^core/team/';
const CORE_BASE = '^core/(errors|types|scheduler)\\.ts$';
const CORE_TESTING = '^core/testing/';
/**
 * Inside the core, the per-layer rules let any file reach core.ts, testing/ and the sandbox's test
 * harness (sandbox/testing/, which tests start a sandbox with): the rules core-root-only-from-hosts
 * and no-test-code-in-production keep production code away from them, so tests (which build whole
 * cores) need no exception in each layer's rule.
 */
const CORE_TEST_SUPPORT = [CORE_TESTING, '^core/core\\.ts$', '^sandbox/testing/'];

/** A rule that says: files in `from` may import, among the repository's files, only `allowed`. */
const onlyImports = (name, comment, from, allowed, fromNot = []) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: fromNot },
  // Packages and Node built-ins are other rules' business.
  to: {
    path: '^(electron|core|shell|renderer|shared|sandbox|bench|e2e|scripts)/|^[^/]+$',
    pathNot: allowed,
    // Node built-ins resolve to their bare name ('fs'), which would look like a root file.
    dependencyTypesNot: ['core'],
  },
});

module.exports = {
  forbidden: [
    // --- whole repository --------------------------------------------------------------------
    {
      name: 'no-circular',
      comment: 'Import cycles (type-only ones included) blur which layer is above which.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A source file nothing imports and that imports nothing is dead or forgotten.',
      severity: 'error',
      from: {
        orphan: true,
        pathNot: ['\\.d\\.ts$', ROOT_FILE, TESTS, '\\.(css|json)$'],
      },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing (a typo, a deleted file, a missing package).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-undeclared-package',
      comment: 'Every package imported must be in package.json (else it works only by hoisting luck).',
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'only-electron-glue-imports-electron',
      comment:
        "Only electron/main and electron/preload import 'electron': the core and the fallback shell " +
        'run in plain Node, where loading it downloads a binary.',
      severity: 'error',
      from: { pathNot: '^electron/(main|preload)/' },
      to: { path: '^node_modules/electron/' },
    },
    {
      name: 'app-never-imports-tooling',
      comment: 'The app (electron, renderer, shared, sandbox) never imports bench/, e2e/ or scripts/.',
      severity: 'error',
      from: { path: APP },
      to: { path: TOOLING },
    },
    {
      name: 'no-test-code-in-production',
      comment:
        'Production code never imports a test file or test support (a testing/ folder); tests, ' +
        'test support, bench/ and e2e/ may.',
      severity: 'error',
      from: { path: APP, pathNot: [TESTS, '(^|/)testing/'] },
      to: { path: [TESTS, '(^|/)testing/'] },
    },

    // --- shared/ ---------------------------------------------------------------------------------
    onlyImports(
      'shared-imports-only-shared',
      'shared/ is loaded by both processes: it imports no other layer.',
      '^shared/',
      ['^shared/'],
    ),
    {
      name: 'shared-no-node-builtins',
      comment: 'shared/ runs in the renderer too: no Node built-ins. (Tests may: they run in Node under Vitest.)',
      severity: 'error',
      from: { path: '^shared/', pathNot: TESTS },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-only-zod-and-decimal',
      comment: 'shared/ uses only pure packages: zod and decimal.js. (Tests may use test tools: vitest, fast-check.)',
      severity: 'error',
      from: { path: '^shared/', pathNot: TESTS },
      to: { path: '^node_modules/', pathNot: '^node_modules/(zod|decimal\\.js)/' },
    },

    // --- renderer/ ---------------------------------------------------------------------------------
    onlyImports(
      'renderer-imports-only-renderer-and-shared',
      'The renderer talks to main only through window.desk: never electron/, sandbox/ or tooling.',
      '^renderer/',
      ['^renderer/', '^shared/'],
    ),
    {
      name: 'renderer-no-node-builtins',
      comment: 'The renderer is a web page: no Node built-ins (tests included: they run in happy-dom).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'screens-import-only-kit-lib-and-own-folder',
      comment:
        'A screen builds from the UI kit (renderer/src/ui/), the helpers (renderer/src/lib/) and its own ' +
        'folder: what two screens need moves to ui/ or lib/, never borrowed from another screen or the ' +
        'frame. Tests may reach further (a journey across the frame and a screen).',
      severity: 'error',
      from: { path: '^renderer/src/screens/([^/]+)/', pathNot: TESTS },
      to: { path: '^renderer/src/', pathNot: ['^renderer/src/(ui|lib)/', '^renderer/src/screens/$1/'] },
    },

    // --- sandbox/ ----------------------------------------------------------------------------------
    onlyImports(
      'sandbox-stands-alone',
      'The sandbox exchange stands alone (it also runs as `npm run sandbox`): only sandbox/ and shared/.',
      '^sandbox/',
      ['^sandbox/', '^shared/'],
      [TESTS],
    ),
    onlyImports(
      'sandbox-tests-use-only-the-api-client',
      "Test freedom: a sandbox test may drive the sandbox with the app's own API client " +
        '(core/api/), as compat.test.ts does with ccxt, to prove the two agree; nothing else ' +
        'of electron/ or renderer/.',
      `^sandbox/.*${TESTS}`,
      ['^sandbox/', '^shared/', CORE_API],
    ),

    // --- core/, shell/, electron/ -------------------------------------------------------------------
    onlyImports(
      'core-imports-no-shell',
      'core/ runs in plain Node under either shell: never electron/main, electron/preload, ' + 'shell/ or renderer/.',
      '^core/',
      ['^core/', '^shared/', '^sandbox/'],
    ),
    onlyImports(
      'shell-imports-no-electron-glue',
      'The Chromium fallback shell runs without Electron: never electron/main, electron/preload or renderer/.',
      '^shell/',
      ['^core/', '^shell/', '^shared/', '^sandbox/'],
    ),
    onlyImports(
      'preload-imports-only-shared-and-channels',
      "The preload runs sandboxed in the renderer's process: shared/ and main's channel names only.",
      '^electron/preload/',
      ['^electron/preload/', '^shared/', '^electron/main/channels\\.ts$'],
    ),
    onlyImports(
      'main-imports-no-renderer',
      'Electron main hosts the core; the renderer is loaded as a page, never imported.',
      '^electron/main/',
      ['^electron/', '^core/', '^shell/', '^shared/', '^sandbox/'],
    ),

    // --- inside core/: the direction ipc → handlers → engine/profiles → api/journal/keychain
    {
      name: 'core-folder-has-a-layer',
      comment: 'Every file in core belongs to a layer of .dependency-cruiser.cjs: add a new folder to one.',
      severity: 'error',
      from: {
        path: '^core/',
        pathNot: [
          CORE_TOP,
          CORE_IPC,
          CORE_HANDLERS,
          CORE_ENGINE,
          CORE_API,
          CORE_JOURNAL,
          CORE_KEYCHAIN,
          CORE_TEAM,
          CORE_BASE,
          CORE_TESTING,
          // Whole-core tests beside core.ts.
          `^core/[^/]+${TESTS}`,
        ],
      },
      to: {},
    },
    {
      name: 'core-root-only-from-hosts',
      comment:
        'core.ts is the composition root: inside the core only host/ and test support import it (and tests, ' +
        'which build a whole core).',
      severity: 'error',
      from: { path: '^core/', pathNot: [CORE_TOP, CORE_TESTING, TESTS] },
      to: { path: '^core/core\\.ts$' },
    },
    onlyImports(
      'core-ipc-below-root',
      'ipc/ (dispatcher, events, lock) may import the handlers and everything below, not host/.',
      CORE_IPC,
      [
        CORE_IPC,
        CORE_HANDLERS,
        CORE_ENGINE,
        CORE_API,
        CORE_JOURNAL,
        CORE_KEYCHAIN,
        CORE_TEAM,
        CORE_BASE,
        '^shared/',
        ...CORE_TEST_SUPPORT,
      ],
    ),
    onlyImports(
      'core-handlers-below-ipc',
      'The handlers (<area>/handlers.ts) never import ipc/ or host/: the dispatcher calls them, not the reverse. ' +
        'Exception: app/handlers.ts takes the AppLock class from ipc/appLock.ts (type only, see below).',
      CORE_HANDLERS,
      [
        CORE_HANDLERS,
        CORE_ENGINE,
        CORE_API,
        CORE_JOURNAL,
        CORE_KEYCHAIN,
        CORE_TEAM,
        CORE_BASE,
        '^shared/',
        ...CORE_TEST_SUPPORT,
      ],
      ['^core/app/handlers\\.ts$'],
    ),
    onlyImports(
      'core-handlers-app-lock-exception',
      'Exception to core-handlers-below-ipc: the app.* handlers operate the lock that the dispatcher ' +
        'enforces (ipc/appLock.ts, itself a leaf that imports only shared/); they name its type only.',
      '^core/app/handlers\\.ts$',
      [
        CORE_HANDLERS,
        CORE_ENGINE,
        CORE_API,
        CORE_JOURNAL,
        CORE_KEYCHAIN,
        CORE_BASE,
        '^shared/',
        '^core/ipc/appLock\\.ts$',
        ...CORE_TEST_SUPPORT,
      ],
    ),
    {
      name: 'core-handlers-app-lock-type-only',
      comment: 'app/handlers.ts may name ipc/appLock.ts as a type only (see core-handlers-app-lock-exception).',
      severity: 'error',
      from: { path: '^core/app/handlers\\.ts$' },
      to: { path: '^core/ipc/appLock\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    onlyImports(
      'core-engine-below-handlers',
      'The engine folders and profiles/ never import a handlers.ts, ipc/ or host/; they may import each other ' +
        '(never in a circle), the infrastructure and the base. Only profiles/ may import sandbox/.',
      CORE_ENGINE,
      [
        CORE_ENGINE,
        CORE_API,
        CORE_JOURNAL,
        CORE_KEYCHAIN,
        CORE_TEAM,
        CORE_BASE,
        '^shared/',
        '^sandbox/',
        ...CORE_TEST_SUPPORT,
      ],
      [CORE_HANDLERS, TESTS],
    ),
    {
      name: 'core-engine-never-imports-handlers',
      comment:
        'A handlers.ts sits beside its domain, above it: the domain files of an area never import it ' +
        '(the folder pattern above allows the folder, this rule takes its handlers out).',
      severity: 'error',
      from: { path: CORE_ENGINE, pathNot: [CORE_HANDLERS, TESTS] },
      to: { path: CORE_HANDLERS },
    },
    onlyImports(
      'core-engine-tests-may-call-their-handlers',
      'Test freedom: a test in an area folder may also call handlers directly (e.g. the operators ' +
        "area's property test drives its handlers); otherwise the engine's rule above.",
      `(${CORE_ENGINE}).*${TESTS}`,
      [
        CORE_HANDLERS,
        CORE_ENGINE,
        CORE_API,
        CORE_JOURNAL,
        CORE_KEYCHAIN,
        CORE_TEAM,
        CORE_BASE,
        '^shared/',
        '^sandbox/',
        ...CORE_TEST_SUPPORT,
      ],
    ),
    {
      name: 'core-only-profiles-start-the-sandbox',
      comment: 'The embedded sandbox is started by profiles/ (the Local sandbox profile) only.',
      severity: 'error',
      from: { path: '^core/', pathNot: ['^core/profiles/', CORE_TESTING, CORE_TOP, TESTS] },
      to: { path: '^sandbox/' },
    },
    onlyImports(
      'core-api-is-infrastructure',
      'The API client (api/) imports only itself, the base and shared/: never the engine, profiles, ' +
        'handlers, ipc, the journal or the keychain.',
      CORE_API,
      [CORE_API, CORE_BASE, '^shared/', ...CORE_TEST_SUPPORT],
      // Test freedom: this integration test talks to a real sandbox through the connection that
      // profiles/ assembles (client + limiter + clock + transport), the way the app does.
      ['^core/api/platform\\.integration\\.test\\.ts$'],
    ),
    onlyImports(
      'core-journal-is-infrastructure',
      'The journal (SQLite, audit log, settings) imports only itself, the base and shared/. ' +
        'Exception: api/client.ts, whose redactBody is the one secret-redaction rule the audit log shares ' +
        'with the API client.',
      CORE_JOURNAL,
      [CORE_JOURNAL, CORE_BASE, '^shared/', '^core/api/client\\.ts$', ...CORE_TEST_SUPPORT],
      // Test freedom: this test opens a whole core (with a key store) to prove the data-directory lock.
      ['^core/journal/dataDirLock\\.test\\.ts$'],
    ),
    onlyImports(
      'core-keychain-is-infrastructure',
      'The keychain imports only itself, the base and shared/.',
      CORE_KEYCHAIN,
      [CORE_KEYCHAIN, CORE_BASE, '^shared/', ...CORE_TEST_SUPPORT],
    ),
    onlyImports(
      'core-team-is-infrastructure',
      'The team database layer (team/: PostgreSQL, signed records, leases) imports only itself, the base ' +
        'and shared/, and three leaves that hold the one rule of their kind: the KeyStore port ' +
        '(keychain/keyStore.ts: the database password and the sealed signing keys live in the keychain), ' +
        'the scrypt derivation (operators/passphrase.ts: it also seals the signing keys) and the role ' +
        'ranking (operators/access.ts: who may make, approve, administer).',
      CORE_TEAM,
      [
        CORE_TEAM,
        CORE_BASE,
        '^shared/',
        '^core/keychain/keyStore\\.ts$',
        '^core/operators/(passphrase|access)\\.ts$',
        ...CORE_TEST_SUPPORT,
      ],
    ),
    onlyImports(
      'core-base-imports-only-shared',
      'errors.ts and types.ts are the bottom of the core: only shared/.',
      CORE_BASE,
      ['^shared/', ...CORE_TEST_SUPPORT],
    ),

    // --- tooling -------------------------------------------------------------------------------------
    {
      name: 'nothing-imports-bench-or-e2e',
      comment: 'bench/ and e2e/ are leaves: nothing else imports them.',
      severity: 'error',
      from: { pathNot: '^(bench|e2e)/' },
      to: { path: '^(bench|e2e)/' },
    },
    {
      name: 'bench-browser-is-a-web-page',
      comment: 'bench/browser/ is bundled like the renderer: renderer/, shared/, bench/browser/ and no Node built-ins.',
      severity: 'error',
      from: { path: '^bench/browser/' },
      to: {
        path: '^(electron|core|shell|sandbox|e2e|scripts)/|^bench/(?!browser/)|^[^/]+$',
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'bench-browser-no-node-builtins',
      comment: 'bench/browser/ runs in a browser: no Node built-ins.',
      severity: 'error',
      from: { path: '^bench/browser/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    // `depcruise .` (package.json, lint:layers) walks the repository; build output, reports,
    // dependencies and hidden folders (.git, .data, …) are not source.
    exclude: {
      path: '(^|/)(out|dist|test-results|playwright-report|coverage|artifacts|results)/|(^|/)\\.[^/]+/',
    },
    doNotFollow: { path: '(^|/)node_modules/' },
    // Packages keep the path they are installed at (node_modules/…), links are not followed: the
    // rules name them by that path, and the layer test links node_modules into a temporary copy.
    preserveSymlinks: true,
    // Type-only imports are dependencies too: a layer must not even name an upper layer's types.
    tsPreCompilationDeps: true,
    // No `paths` in the project's tsconfigs; the base carries moduleResolution "Bundler" for all.
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
