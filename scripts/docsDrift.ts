/**
 * Docs that cannot drift (`npm run lint:docs`, part of `npm run lint`; tested by docsDrift.test.ts).
 *
 * 1. Every file path quoted in docs/ and README.md (in backticks or as a link) names a file or
 *    folder of the repository. A path may be written from the repository root, from the doc's own
 *    folder, or shortened from the left the way the docs do inside an area (`movements/engine.ts`
 *    for `core/movements/engine.ts`): it must still be the end of a real path.
 * 2. Every code name quoted (`createCore`, `core.idle()`, `PlatformClock.measuredNow()`) appears
 *    in the code: a renamed or deleted function leaves the doc failing, not quietly wrong.
 * 3. The layer table in docs/architecture.md is the one generated from `.dependency-cruiser.cjs`
 *    (`npm run docs:layers` rewrites it), so the rules and their explanation are one text.
 *
 * Placeholders (`<area>`, `*`, `…`, `$VAR`) and paths outside the repository (`../shared/…`, `~/…`,
 * `/tmp/…`) are not checked: they name no one file here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';

export interface DocsProblem {
  readonly doc: string;
  readonly line: number;
  readonly quoted: string;
  readonly why: string;
}

/** What the checks read: the repository's files and their text. */
export interface RepoView {
  /** Every tracked file, relative to the root, with `/` separators. */
  readonly files: readonly string[];
  read(path: string): string;
  /** Whether git ignores the path: build output and results (`out/`, `bench/results/…`) the docs may name. */
  ignored(path: string): boolean;
}

/**
 * Names of other projects' APIs the docs quote on purpose (what we chose not to use, or the
 * library's own name for what our code calls differently): each with the project it belongs to.
 */
export const OTHER_PROJECTS_NAMES: Readonly<Record<string, string>> = {
  systemPreferences: 'Electron',
  promptTouchID: 'Electron',
  UserConsentVerifier: 'Windows Hello (WinRT)',
  createOptionsChart: 'lightweight-charts',
  devDependency: "npm's word for a package in devDependencies",
};

export const LAYER_TABLE_START =
  '<!-- layer-table: generated from .dependency-cruiser.cjs by `npm run docs:layers` -->';
export const LAYER_TABLE_END = '<!-- layer-table: end -->';

const CODE_EXTENSIONS = /\.(ts|tsx|cts|mts|js|cjs|mjs|json|sh|yml|yaml|css|html)$/;
const FILE_LIKE = /^[\w@.-]+(\/[\w@.[\]-]*)*\/?$/;
const KNOWN_EXTENSION = /\.(ts|tsx|js|cjs|mjs|json|md|sh|yml|yaml|css|html|png|svg|ico|sql|toml|txt|csv)$/;
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(.*\))?$/;
const PLACEHOLDER = /[<>*…{}$~]|\.\.\.|^\.\.\//;

/** The backticked spans and link targets of a markdown text, with their line numbers (fenced code skipped). */
export const quotedSpans = (markdown: string): { text: string; line: number; link: boolean }[] => {
  const spans: { text: string; line: number; link: boolean }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((lineText, index) => {
    if (/^\s*```/.test(lineText)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const match of lineText.matchAll(/`([^`]+)`/g))
      spans.push({ text: match[1] ?? '', line: index + 1, link: false });
    for (const match of lineText.matchAll(/\]\(([^)\s]+)\)/g))
      spans.push({ text: match[1] ?? '', line: index + 1, link: true });
  });
  return spans;
};

/** A quoted span read as a repository path, or undefined when it is not one. */
const asPath = (span: string, link: boolean): string | undefined => {
  if (link) {
    if (/^[a-z]+:/i.test(span) || span.startsWith('#')) return undefined;
    return span.replace(/#.*$/, '');
  }
  const text = span.replace(/:\d+(-\d+)?$/, '').replace(/#.*$/, '');
  if (PLACEHOLDER.test(text) || text.includes(' ') || !FILE_LIKE.test(text)) return undefined;
  if (text.startsWith('/') || text.startsWith('node:') || text.startsWith('@')) return undefined;
  // `a/b` without an extension could be a path or a ratio/choice ("and/or", "REST/WS"): a folder
  // path ends with `/`, a file path has an extension.
  // A bare file name (`core.lock.json`, `secret.html`) is often a file the app writes or serves,
  // not one of the repository's: only a path with a folder in it is checked.
  if (!text.includes('/')) return undefined;
  return text.endsWith('/') || KNOWN_EXTENSION.test(text) ? text : undefined;
};

/** Whether `path` (from the root, the doc's folder, or shortened from the left) names a tracked file or folder. */
const pathExists = (path: string, doc: string, files: readonly string[], folders: ReadonlySet<string>): boolean => {
  const candidates = [normalize(join(dirname(doc), path)).replaceAll('\\', '/'), path.replace(/^\.\//, '')];
  for (const candidate of candidates) {
    const bare = candidate.replace(/\/$/, '');
    if (files.includes(bare) || folders.has(bare)) return true;
  }
  const tail = path.replace(/^\.\//, '').replace(/\/$/, '');
  if (tail.startsWith('..')) return true; // outside the repository (../shared/…): not ours to check
  return [...files, ...folders].some((path) => path.endsWith(`/${tail}`));
};

/** Every identifier of the code (a word set): what a quoted name must be found in. */
const codeWords = (repo: RepoView): Set<string> => {
  const words = new Set<string>();
  for (const file of repo.files) {
    if (!CODE_EXTENSIONS.test(file) || file.endsWith('package-lock.json')) continue;
    for (const word of repo.read(file).match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(word);
  }
  return words;
};

/** The names of a quoted span worth checking: camelCase or PascalCase words, and a call's or member's last name. */
const namesToCheck = (span: string): string[] => {
  if (!IDENTIFIER_PATH.test(span)) return [];
  const bare = span.replace(/\(.*\)$/, '');
  const segments = bare.split('.');
  const isCall = span.endsWith(')');
  const codeLike = (word: string) => /^[a-z]+[A-Z]\w*$/.test(word) || /^[A-Z][a-z]+[A-Z]\w*$/.test(word);
  // A dotted lower-case span is often an operation or a file-ish word (`app.ping`, `core.lock`):
  // only its camelCase parts are checked; a call's own name always is.
  return segments.filter(
    (segment, index) => codeLike(segment) || (isCall && index === segments.length - 1 && /^[a-z]\w{2,}$/.test(segment)),
  );
};

export const docsToCheck = (files: readonly string[]): string[] =>
  files.filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));

/** The problems of every doc: paths that name nothing, code names that are nowhere in the code. */
export const findDocsDrift = (repo: RepoView): DocsProblem[] => {
  const folders = new Set<string>();
  for (const file of repo.files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i += 1) folders.add(parts.slice(0, i).join('/'));
  }
  const words = codeWords(repo);
  const problems: DocsProblem[] = [];
  for (const doc of docsToCheck(repo.files)) {
    for (const span of quotedSpans(repo.read(doc))) {
      const path = asPath(span.text, span.link);
      if (path !== undefined) {
        if (!pathExists(path, doc, repo.files, folders) && !repo.ignored(path))
          problems.push({ doc, line: span.line, quoted: span.text, why: 'no such file or folder' });
        continue;
      }
      if (span.link) continue;
      for (const name of namesToCheck(span.text)) {
        if (!words.has(name) && OTHER_PROJECTS_NAMES[name] === undefined)
          problems.push({ doc, line: span.line, quoted: span.text, why: `\`${name}\` is nowhere in the code` });
      }
    }
  }
  return problems;
};

// --- the layer table --------------------------------------------------------------------------

interface CruiserRule {
  readonly name: string;
  readonly comment?: string;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ').replace(/\s+/g, ' ').trim();

/** The markdown table of every rule of the dependency-cruiser config, in the config's order. */
export const layerTable = (config: { forbidden: readonly CruiserRule[] }): string => {
  const rows = config.forbidden.map((rule) => `| \`${rule.name}\` | ${cell(rule.comment ?? '')} |`);
  return ['| Rule | What it says |', '| --- | --- |', ...rows].join('\n');
};

/** `text` with the part between the layer table's markers replaced by `table`; throws when a marker is missing. */
export const withLayerTable = (text: string, table: string): string => {
  const start = text.indexOf(LAYER_TABLE_START);
  const end = text.indexOf(LAYER_TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/architecture.md has lost the layer table markers');
  return `${text.slice(0, start + LAYER_TABLE_START.length)}\n\n${table}\n\n${text.slice(end)}`;
};

export const repoView = (root: string): RepoView => ({
  files: execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== ''),
  ignored: (path) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root });
      return true;
    } catch {
      return false;
    }
  },
  read: (path) => {
    try {
      return readFileSync(join(root, path), 'utf8');
    } catch {
      return ''; // listed but deleted in the work tree: no text
    }
  },
});

export const loadCruiserConfig = (root: string): { forbidden: CruiserRule[] } =>
  createRequire(join(root, 'package.json'))('./.dependency-cruiser.cjs');

const main = (): void => {
  const root = process.cwd();
  const architecture = join(root, 'docs/architecture.md');
  const table = layerTable(loadCruiserConfig(root));
  if (process.argv.includes('--write')) {
    writeFileSync(architecture, withLayerTable(readFileSync(architecture, 'utf8'), table));
    console.log('docs/architecture.md: layer table rewritten from .dependency-cruiser.cjs');
    return;
  }
  const problems = findDocsDrift(repoView(root));
  const current = readFileSync(architecture, 'utf8');
  if (withLayerTable(current, table) !== current)
    problems.push({
      doc: 'docs/architecture.md',
      line: 0,
      quoted: 'layer table',
      why: 'differs from .dependency-cruiser.cjs: run npm run docs:layers',
    });
  for (const problem of problems)
    console.error(`${problem.doc}:${problem.line}: \`${problem.quoted}\`: ${problem.why}`);
  if (problems.length > 0) {
    console.error(`${problems.length} stale reference(s) in the docs`);
    process.exit(1);
  }
};

if (process.argv[1]?.endsWith('docsDrift.ts')) main();
