/**
 * A V8 code cache for the CommonJS modules a built Node process of the app loads (playwright-core in
 * the shell, fastify in the sandbox, undici in the core): each is compiled from its cached bytecode
 * instead of from source, which was a fifth of the shell's CPU on its way to the window (issue 26).
 * Node 20 has no `module.enableCompileCache`; this does the same for CommonJS with `vm.Script`'s
 * `cachedData`. ES modules (the app's own bundles) are not covered: vm compiles those only behind a flag.
 *
 * Loaded before the process's entry (`node --import <out>/main/compileCache.js <entry>`, see
 * `execArgvFor` in ./nodeLauncher.ts), it keeps its cache in `<out>/main/.compile-cache/<entry name>/`, one file per
 * module, named by a hash of Node's version, the module's path and its source: a rebuilt or updated
 * module gets a new file; V8 itself refuses data made by another V8 or with other flags and then
 * compiles from source. New or refused entries are written when the process exits (atomically: a
 * second process never reads half a file), and files this run did not use are removed with them.
 * Anything that fails (a read-only install, a full disk) leaves the module compiled from source.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, extname, join } from 'node:path';
import vm from 'node:vm';

interface ModuleInternals {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}
type ModuleClass = typeof Module & {
  prototype: ModuleInternals;
  wrap(content: string): string;
  _resolveFilename(request: string, parent: ModuleInternals, isMain: boolean, options?: unknown): string;
  _extensions: unknown;
  _cache: unknown;
};

export interface CompileCache {
  /** Writes the entries made or refused since the last save, and removes the files this run did not use. */
  save(): void;
  /** Node's own compile again (tests). */
  uninstall(): void;
}

/** Installs the cache for this process; `dir` is where its files go. */
export const installCompileCache = (dir: string): CompileCache => {
  const Modules = Module as ModuleClass;
  const original = Modules.prototype._compile;
  const used = new Set<string>();
  const toWrite: { file: string; script: vm.Script }[] = [];
  Modules.prototype._compile = function compileCached(this: ModuleInternals, content: string, filename: string) {
    const name = createHash('sha256')
      .update(`${process.version}\0${filename}\0`)
      .update(content)
      .digest('hex')
      .slice(0, 32);
    const file = join(dir, name);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    let script: vm.Script;
    try {
      script = new vm.Script(Modules.wrap(content), {
        filename,
        ...(cachedData ? { cachedData } : {}),
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // Not a script (an ES module loaded with require): Node's own way, uncached.
      return original.call(this, content, filename);
    }
    used.add(name);
    if (cachedData === undefined || script.cachedDataRejected) toWrite.push({ file, script });
    const moduleRequire = Object.assign((id: string) => this.require(id), {
      resolve: (request: string, options?: unknown) => Modules._resolveFilename(request, this, false, options),
      // Node's own require names the entry's module here; an entry loaded as an ES module has none.
      main: process.mainModule,
      extensions: Modules._extensions,
      cache: Modules._cache,
    });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, moduleRequire, this, filename, dirname(filename));
  };
  const save = () => {
    if (toWrite.length === 0) return;
    try {
      mkdirSync(dir, { recursive: true });
      for (const { file, script } of toWrite.splice(0)) {
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, file);
      }
      // What this run did not load belongs to an older build (or to a start that went another way; it is rebuilt then).
      for (const name of readdirSync(dir)) if (!used.has(name)) rmSync(join(dir, name), { force: true });
    } catch {
      // The cache is an optimisation: a start never fails for it.
    }
  };
  return {
    save,
    uninstall: () => {
      Modules.prototype._compile = original;
    },
  };
};

// Loaded as a preload (`--import`): installs itself for the entry that follows, and writes on exit.
const entry = process.argv[1];
if (import.meta.filename.endsWith('.js') && entry !== undefined) {
  const cache = installCompileCache(
    join(import.meta.dirname, '.compile-cache', basename(entry, extname(entry)).replace(/[^\w-]/g, '_')),
  );
  process.once('exit', () => cache.save());
}
