/**
 * The no-fixed-sleeps check (`npm run lint:sleeps`, part of `npm run lint`). A test that sleeps a
 * fixed time before looking is slow on a quiet machine and wrong on a busy one ("nothing happened"
 * after 500 ms proves nothing when the machine needed 600). Tests wait for what they expect: a
 * condition (`waitUntil`), the core's work (`core.idle()`), a manual scheduler's time (`advance`),
 * an event, Playwright's auto-waiting locators.
 *
 * In test code (`*.test.ts(x)`, `*.spec.ts`, `e2e/`, `testing/` folders) it finds every sleep — a
 * promise around `setTimeout`, a call of a sleep helper (`sleep`, `delay`, `wait`, `pause`, or any
 * function of the file that wraps the promise), `timers/promises`' `setTimeout`, Playwright's
 * `waitForTimeout` — and accepts only a short poll: under 100 ms, inside a loop (it re-checks a
 * condition; or the helper's own interval, a plain name). Anything else fails, unless the line (or
 * the one above) says why the wait itself is the point: `// fixed-sleep-ok: <reason>`.
 *
 *   npx tsx scripts/fixedSleeps.ts [--root DIR] [folder…]   (default: this repository's folders)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';

/** A poll shorter than this, inside a loop, is a wait for a condition; anything else is a sleep. */
export const POLL_LIMIT_MS = 100;
export const ALLOW_COMMENT = 'fixed-sleep-ok:';
const SLEEP_NAMES = new Set(['sleep', 'delay', 'wait', 'pause']);
const ROOT = resolve(import.meta.dirname, '..');
const DEFAULT_FOLDERS = ['electron', 'core', 'shell', 'renderer', 'sandbox', 'shared', 'scripts', 'e2e'];
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'artifacts', 'playwright-report', '.git']);

export interface FixedSleep {
  readonly file: string;
  readonly line: number;
  /** The delay as written ("500", "o.ms"). */
  readonly delay: string;
}

const isTestCode = (path: string): boolean =>
  /\.(test|spec)\.tsx?$/.test(path) || /(^|\/)e2e\//.test(path) || /(^|\/)testing\//.test(path);

const walkFiles = (dir: string, found: string[] = []): string[] => {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walkFiles(path, found);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
};

// biome-ignore lint/suspicious/noExplicitAny: a Babel AST node, walked generically.
type Node = any;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
]);

/** Every node with its ancestors (nearest last). */
const visit = (node: Node, ancestors: Node[], each: (node: Node, ancestors: Node[]) => void): void => {
  each(node, ancestors);
  ancestors.push(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
    if (Array.isArray(value)) for (const child of value) isNode(child) && visit(child, ancestors, each);
    else if (isNode(value)) visit(value, ancestors, each);
  }
  ancestors.pop();
};

/** Whether `node` calls the function named `name` anywhere inside it (`() => resolve()`). */
const calls = (node: Node, name: string): boolean => {
  let found = false;
  visit(node, [], (n) => {
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === name) found = true;
  });
  return found;
};

/**
 * A timer that resolves a promise: `new Promise((resolve) => setTimeout(resolve, d))` (or
 * `() => resolve()`). Its delay, and the ancestors of the `new Promise` (where the sleep is). A
 * timer that rejects is a time limit on something else, not a sleep.
 */
const promisedTimeout = (node: Node, ancestors: Node[]): { delay: Node; outer: Node[] } | undefined => {
  if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'setTimeout') return;
  const at = ancestors.findLastIndex(
    (a) => a.type === 'NewExpression' && a.callee.type === 'Identifier' && a.callee.name === 'Promise',
  );
  if (at < 0) return;
  const executor = ancestors[at].arguments[0];
  const resolveName = executor?.params?.[0]?.type === 'Identifier' ? executor.params[0].name : undefined;
  const callback = node.arguments[0];
  if (resolveName === undefined || callback === undefined) return;
  const resolves =
    (callback.type === 'Identifier' && callback.name === resolveName) ||
    (FUNCTIONS.has(callback.type) && calls(callback.body, resolveName));
  return resolves ? { delay: node.arguments[1], outer: ancestors.slice(0, at) } : undefined;
};

/** The name a helper wrapping a promised timeout is bound to (`const sleep = (ms) => new Promise(...)`), when the delay is its parameter. */
const helperName = (outer: Node[], delay: Node): string | undefined => {
  const at = outer.findLastIndex((a) => FUNCTIONS.has(a.type));
  const fn = outer[at];
  if (fn === undefined || delay?.type !== 'Identifier') return undefined;
  if (!fn.params.some((p: Node) => p.type === 'Identifier' && p.name === delay.name)) return undefined;
  if (fn.type === 'FunctionDeclaration') return fn.id?.name;
  const parent = outer[at - 1];
  return parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier' ? parent.id.name : undefined;
};

/** Whether the node runs inside a loop of its own function (it polls a condition). */
const inLoop = (ancestors: Node[]): boolean => {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if (FUNCTIONS.has(a.type)) return false;
    if (LOOPS.has(a.type)) return true;
  }
  return false;
};

const literalMs = (delay: Node | undefined): number | undefined =>
  delay?.type === 'NumericLiteral' ? (delay.value as number) : undefined;

/** The fixed sleeps of one file's source. */
export const fixedSleepsIn = (file: string, source: string): FixedSleep[] => {
  const ast = parse(source, {
    sourceType: 'module',
    errorRecovery: true,
    plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
  });
  const lines = source.split('\n');
  const allowed = (line: number) =>
    [lines[line - 1], lines[line - 2]].some((text) => {
      const at = text?.indexOf(ALLOW_COMMENT) ?? -1;
      return at >= 0 && (text as string).slice(at + ALLOW_COMMENT.length).trim().length > 0;
    });
  // First the file's own sleep helpers (their bodies are definitions, not sleeps)…
  const helpers = new Set(SLEEP_NAMES);
  const definitions = new Set<Node>();
  visit(ast.program, [], (node, ancestors) => {
    const timer = promisedTimeout(node, ancestors);
    const name = timer && helperName(timer.outer, timer.delay);
    if (name === undefined) return;
    helpers.add(name);
    definitions.add(node);
  });
  // …then every sleep: a promised timeout, a helper call, timers/promises, waitForTimeout.
  const found: FixedSleep[] = [];
  visit(ast.program, [], (node, ancestors) => {
    if (node.type !== 'CallExpression' || definitions.has(node)) return;
    const callee = node.callee;
    const timer = promisedTimeout(node, ancestors);
    let delay: Node | undefined;
    let where = ancestors;
    if (timer !== undefined) {
      delay = timer.delay;
      where = timer.outer;
    } else if (callee.type === 'Identifier' && helpers.has(callee.name) && node.arguments.length >= 1)
      delay = node.arguments[0];
    else if (
      callee.type === 'MemberExpression' &&
      callee.property.type === 'Identifier' &&
      callee.property.name === 'waitForTimeout'
    )
      delay = node.arguments[0];
    else if (
      callee.type === 'Identifier' &&
      callee.name === 'setTimeout' &&
      ancestors.at(-1)?.type === 'AwaitExpression' &&
      node.arguments.length === 1
    )
      delay = node.arguments[0]; // timers/promises: `await setTimeout(ms)`
    else return;
    const ms = literalMs(delay);
    // A poll re-checks a condition often: a short literal, or a helper's own interval parameter.
    const short = ms !== undefined ? ms < POLL_LIMIT_MS : delay?.type === 'Identifier';
    const poll = inLoop(where) && short;
    const line = node.loc?.start.line ?? 0;
    if (poll || allowed(line)) return;
    found.push({ file, line, delay: delay ? source.slice(delay.start, delay.end) : '?' });
  });
  return found;
};

/** Every fixed sleep in the test code under `folders` (relative to `root`). */
export const findFixedSleeps = (root: string, folders: readonly string[] = DEFAULT_FOLDERS): FixedSleep[] =>
  folders
    .map((folder) => join(root, folder))
    .filter((dir) => {
      try {
        return statSync(dir).isDirectory();
      } catch {
        return false;
      }
    })
    .flatMap((dir) => walkFiles(dir))
    .map((path) => relative(root, path))
    .filter(isTestCode)
    .flatMap((file) => fixedSleepsIn(file, readFileSync(join(root, file), 'utf8')));

export const report = (sleeps: readonly FixedSleep[]): string =>
  [
    `${sleeps.length} fixed sleep${sleeps.length === 1 ? '' : 's'} in tests:`,
    ...sleeps.map((s) => `  ${s.file}:${s.line}  waits ${s.delay} ms`),
    '',
    'A test waits for what it expects, not for a time: waitUntil(condition) (core/testing/waitUntil.ts),',
    "await core.idle(), a manual scheduler's advance()/idle() (core/testing/scheduler.ts), an event, or",
    `Playwright's auto-waiting locators. A poll under ${POLL_LIMIT_MS} ms inside a loop is fine. If the wait itself is`,
    `the point, say why on the line above: // ${ALLOW_COMMENT} <reason>`,
  ].join('\n');

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? resolve(args.splice(rootAt, 2)[1] ?? '.') : ROOT;
  const sleeps = findFixedSleeps(root, args.length > 0 ? args : DEFAULT_FOLDERS);
  if (sleeps.length > 0) {
    console.error(report(sleeps));
    process.exit(1);
  }
}
