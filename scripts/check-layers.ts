/**
 * The layer rule, checked: `tsx scripts/check-layers.ts` (part of `npm run lint`).
 *
 *   shared/          imports only shared/ and pure packages (zod, decimal.js): no Node, no
 *                    Electron, no DOM, no other layer — both processes load it.
 *   renderer/        never imports electron/ or sandbox/, Node built-ins or 'electron': it talks
 *                    to main only through window.desk.
 *   everything else  never imports 'electron' outside electron/main and electron/preload: from
 *                    Electron 42 on, loading it in plain Node downloads a binary (and the core and
 *                    the fallback shell must run without Electron).
 *   sandbox/         stands alone: never imports electron/ or renderer/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly specifier: string;
  readonly rule: string;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', 'playwright-report', 'coverage']);
const LAYERS = ['shared', 'renderer', 'electron', 'sandbox', 'e2e', 'bench', 'scripts'];
/** Packages shared/ may use: pure computation, no platform. */
const SHARED_PACKAGES = new Set(['zod', 'decimal.js']);
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every module specifier in a source text, with its line number. */
export const importsOf = (source: string): { specifier: string; line: number }[] => {
  // Drop comments (keeping line breaks) so commented-out imports do not count.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '');
  const found: { specifier: string; line: number }[] = [];
  const patterns = [
    /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] as string;
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ specifier, line });
    }
  }
  return found;
};

const isElectronPackage = (specifier: string) => specifier === 'electron' || specifier.startsWith('electron/');

/** The rule a single import breaks, if any. `file` is relative to the repository root. */
export const ruleBroken = (file: string, specifier: string): string | undefined => {
  const parts = file.split(/[\\/]/);
  const layer = parts[0] ?? '';
  const inElectronGlue = layer === 'electron' && (parts[1] === 'main' || parts[1] === 'preload');
  const relativeImport = specifier.startsWith('.');
  const target = relativeImport
    ? relative('.', join(dirname(file), specifier))
        .split(sep)
        .join('/')
    : undefined;
  const targetLayer = target?.split('/')[0];

  if (isElectronPackage(specifier) && !inElectronGlue) {
    return "only electron/main and electron/preload may import 'electron'";
  }
  if (target?.startsWith('..')) return 'imports from outside the repository';
  // Tests may use test tools (vitest, fast-check, node:) whatever layer they sit in.
  const isTest = /\.test\.tsx?$|\.typetest\.ts$/.test(file);
  switch (layer) {
    case 'shared':
      if (isTest && !relativeImport) return undefined;
      if (relativeImport) return targetLayer === 'shared' ? undefined : 'shared/ imports only shared/';
      if (NODE_BUILTINS.has(specifier)) return 'shared/ must not use Node built-ins';
      if (
        !SHARED_PACKAGES.has(
          specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''),
        )
      ) {
        return `shared/ may only use ${[...SHARED_PACKAGES].join(', ')}`;
      }
      return undefined;
    case 'renderer':
      if (targetLayer === 'electron' || targetLayer === 'sandbox')
        return 'renderer/ never imports electron/ or sandbox/';
      if (NODE_BUILTINS.has(specifier)) return 'renderer/ must not use Node built-ins';
      return undefined;
    case 'sandbox':
      if (targetLayer === 'electron' || targetLayer === 'renderer')
        return 'sandbox/ never imports electron/ or renderer/';
      return undefined;
    default:
      return undefined;
  }
};

const walk = (dir: string, out: string[]) => {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
};

export const checkLayers = (root: string): Violation[] => {
  const files: string[] = [];
  for (const layer of LAYERS) {
    try {
      walk(join(root, layer), files);
    } catch {
      // A layer folder that does not exist yet has nothing to check.
    }
  }
  const violations: Violation[] = [];
  for (const path of files) {
    const file = relative(root, path).split(sep).join('/');
    for (const { specifier, line } of importsOf(readFileSync(path, 'utf8'))) {
      const rule = ruleBroken(file, specifier);
      if (rule) violations.push({ file, line, specifier, rule });
    }
  }
  return violations;
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const violations = checkLayers(root);
  for (const v of violations) console.error(`${v.file}:${v.line}: imports '${v.specifier}' — ${v.rule}`);
  if (violations.length > 0) {
    console.error(`Layer check failed: ${violations.length} import(s) break the layer rule.`);
    process.exit(1);
  }
  console.log('Layer check passed.');
}
