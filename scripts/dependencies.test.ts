/**
 * What the packaged Electron app carries: electron-builder packs the production dependency tree
 * (package.json `dependencies` and what they need) next to the built `out/`. Only what main, the
 * core and the sandbox load at run time belongs there; the renderer's libraries are already inside
 * Vite's bundle, and playwright-core drives the Chromium fallback shell, which runs from a clone.
 * Also: the Node versions the project declares, types and tests agree (docs/decisions.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

interface PackageJson {
  readonly engines: { readonly node: string };
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
interface LockEntry extends Partial<PackageJson> {
  readonly version?: string;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Source files of a folder that ship (no tests, type tests or test support). */
const shippedSources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => join(ROOT, dir, file))
    .filter((path) => /\.tsx?$/.test(path) && statSync(path).isFile())
    .filter((path) => !/\.(test|typetest)\.tsx?$/.test(path) && !/[/\\]testing[/\\]/.test(path));

const BUILTINS = new Set(builtinModules);
/** The npm package an import names: 'react-dom/client' → 'react-dom', '@a/b/c' → '@a/b'; undefined for relative or built-in. */
const packageOf = (specifier: string): string | undefined => {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]!)) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};

/**
 * Packages imported or re-exported (statically or dynamically, types excluded) or required (`createRequire(…)('x')`,
 * for a package loaded lazily) by the given folders' shipped sources.
 */
const importedBy = (dirs: readonly string[]): Map<string, string> => {
  const found = new Map<string, string>();
  for (const path of dirs.flatMap(shippedSources)) {
    const text = readFileSync(path, 'utf8');
    const pattern =
      /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\('([^']+)'\)|createRequire\([^)]*\)\('([^']+)'\)/g;
    for (const match of text.matchAll(pattern)) {
      const name = packageOf(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
      if (name !== undefined && !found.has(name)) found.set(name, relative(ROOT, path));
    }
  }
  return found;
};

/** What runs in Node at run time under Electron: main, the core's process, the sandbox's, and what they share. */
const RUNTIME = importedBy(['electron/main', 'core', 'sandbox', 'shared']);
RUNTIME.delete('electron'); // Electron itself, never a dependency
const RENDERER = importedBy(['renderer/src']);

/**
 * The packages electron-builder would pack: package.json's dependencies and, resolved as Node
 * resolves them in the lock file's tree, everything they need.
 */
const productionTree = (): Set<string> => {
  const packed = new Set<string>();
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
      const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (base === '') return undefined;
    }
  };
  const visit = (path: string) => {
    if (packed.has(path)) return;
    packed.add(path);
    const entry = lock.packages[path] ?? {};
    const needs = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...Object.fromEntries(
        Object.entries(entry.peerDependencies ?? {}).filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional),
      ),
    };
    for (const name of Object.keys(needs)) {
      const target = resolveFrom(path, name);
      if (target !== undefined) visit(target);
    }
  };
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const target = resolveFrom('', name);
    if (target === undefined) throw new Error(`${name} is a dependency but not in package-lock.json`);
    visit(target);
  }
  return new Set([...packed].map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)));
};

describe('what the packaged app carries', () => {
  const packed = productionTree();

  it('packs every package main, the core and the sandbox load at run time', () => {
    const missing = [...RUNTIME].filter(([name]) => pkg.dependencies[name] === undefined);
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });

  it('lists nothing in dependencies that the app does not load at run time', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => !RUNTIME.has(name))).toEqual([]);
  });

  it('packs no renderer-only library (Vite bundles them) and not playwright-core (the fallback shell runs from a clone)', () => {
    const rendererOnly = [...RENDERER.keys()].filter((name) => !RUNTIME.has(name));
    // The renderer's own libraries must be found at all, or this test proves nothing.
    expect(rendererOnly).toEqual(expect.arrayContaining(['react', 'react-dom', 'recharts', 'lucide-react']));
    expect([...rendererOnly, 'playwright-core'].filter((name) => packed.has(name))).toEqual([]);
  });

  it('electron-builder packs only out/ and package.json, never node_modules by name', () => {
    const builder = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const files = /^files:\n((?:\s+-.*\n)+)/m.exec(builder)?.[1] ?? '';
    const included = files
      .split('\n')
      .map((line) => line.replace(/^\s*-\s*/, '').replace(/^"|"$/g, ''))
      .filter((entry) => entry !== '' && !entry.startsWith('!'));
    expect(included).toEqual(['out/**', 'package.json']);
    // extraResources / extraFiles would copy files past the dependency tree.
    expect(builder).not.toMatch(/^(extraResources|extraFiles):/m);
  });
});

describe('Node versions', () => {
  const declaredMajor = Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);

  it('the project types the Node it declares, and the tests run on it', () => {
    const typesMajor = Number(/(\d+)/.exec(pkg.devDependencies['@types/node'] ?? '')?.[1]);
    expect(typesMajor).toBe(declaredMajor);
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    const [, wantMajor, wantMinor] = /(\d+)\.(\d+)/.exec(pkg.engines.node)!.map(Number) as [number, number, number];
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor)).toBe(true);
  });

  it('docs/decisions.md explains the Electron in package.json and its own Node', () => {
    // Electron runs main, the core and the sandbox on its own embedded Node, newer than the one the
    // project tests on; a new Electron must be re-read against that decision.
    const electronMajor = /(\d+)/.exec(pkg.devDependencies.electron ?? '')?.[1];
    const decisions = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
    expect(decisions).toMatch(new RegExp(`Electron ${electronMajor}\\b`));
    expect(decisions).toMatch(/Electron's own Node/);
  });
});
