/**
 * The built processes' code cache (compileCache.ts): a module loads the same with it, from a cache
 * entry that is missing, corrupt or made for an older version of the module alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { bundledEntry } from '../../sandbox/testing/bundledEntry';
import { type CompileCache, installCompileCache } from './compileCache';

let dir: string;
let cacheDir: string;
let cache: CompileCache | undefined;
const moduleFile = () => join(dir, 'answer.cjs');
const load = (): { answer: number; resolved: string } => {
  const require = createRequire(join(dir, 'entry.js'));
  delete require.cache[moduleFile()];
  delete require.cache[join(dir, 'other.cjs')];
  return require(moduleFile()) as { answer: number; resolved: string };
};
/** A new process: the cache installed afresh. */
const start = () => {
  cache?.uninstall();
  cache = installCompileCache(cacheDir);
  return cache;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-compile-cache-'));
  cacheDir = join(dir, 'cache');
  writeFileSync(join(dir, 'other.cjs'), 'module.exports = "other";');
  writeFileSync(
    moduleFile(),
    'module.exports = { answer: 42, resolved: require(require.resolve("./other.cjs")) + " " + __filename };',
  );
});

afterEach(() => {
  cache?.uninstall();
  cache = undefined;
  rmSync(dir, { recursive: true, force: true });
});

it('keeps a compiled module and loads it from there, as it loads from source', () => {
  const first = start();
  expect(load()).toEqual({ answer: 42, resolved: `other ${moduleFile()}` });
  first.save();
  // Both modules (the one and what it requires) have an entry now.
  expect(readdirSync(cacheDir)).toHaveLength(2);
  expect(load()).toEqual({ answer: 42, resolved: `other ${moduleFile()}` });
});

/**
 * The module loaded in a process of its own (V8 keeps what it compiled in this one and would not
 * read the cache again), with the cache installed; prints what the module exports. The cache's
 * module is bundled into plain JavaScript for it (tsx cost 0.15 s more CPU per start).
 */
const loadInNewProcess = async (): Promise<string> => {
  const compileCache = await bundledEntry(join(import.meta.dirname, 'compileCache.ts'));
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       import { installCompileCache } from ${JSON.stringify(pathToFileURL(compileCache).href)};
       const cache = installCompileCache(${JSON.stringify(cacheDir)});
       console.log(createRequire(${JSON.stringify(join(dir, 'entry.js'))})(${JSON.stringify(moduleFile())}).answer);
       cache.save();`,
    ],
    { encoding: 'utf8' },
  ).trim();
};

it('a corrupt entry is compiled from source and written anew', async () => {
  expect(await loadInNewProcess()).toBe('42');
  for (const name of readdirSync(cacheDir)) writeFileSync(join(cacheDir, name), 'not bytecode');
  expect(await loadInNewProcess()).toBe('42');
  expect(readdirSync(cacheDir)).toHaveLength(2);
  for (const name of readdirSync(cacheDir)) expect(readFileSync(join(cacheDir, name), 'utf8')).not.toBe('not bytecode');
});

it('a changed module never runs its old code, and its old entry goes', () => {
  const first = start();
  load();
  first.save();
  const before = new Set(readdirSync(cacheDir));
  writeFileSync(moduleFile(), 'module.exports = { answer: 43, resolved: "" };');
  const second = start();
  expect(load().answer).toBe(43);
  second.save();
  const after = readdirSync(cacheDir);
  expect(after).toHaveLength(1);
  expect(before.has(after[0]!)).toBe(false);
});
