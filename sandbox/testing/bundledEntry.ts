/**
 * A child process's TypeScript entry (the fault soak's core worker, the sandbox's CLI, the lock
 * holder, the shell's CLI, a module a fresh process loads) as one JavaScript file, for every test
 * that runs TypeScript in a child process. Under `node --import tsx` every start
 * loaded tsx and compiled the entry's modules again (the core's two hundred: 1.1–1.5 s of CPU,
 * seconds of waiting on a loaded machine). The bundle starts in 0.3–0.4 s; esbuild makes it once per
 * test process (0.2 s), shared by every start. Here, beside the sandbox's test harness, so that both
 * the sandbox's tests and the core's test support may use it.
 *
 * Packages stay outside the bundle (native ones cannot be bundled; `createRequire` finds the rest),
 * so it is written under the repository's node_modules/.cache, where Node resolves them as from the
 * sources. Each bundle is named by its content: two test processes write the same file, each
 * atomically (each write renews its date); a changed source makes a new file, and files not
 * written for a day are removed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { build } from 'esbuild';

const ROOT = join(dirname(import.meta.dirname), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'test-bundles');
const STALE_MS = 24 * 60 * 60 * 1000;

const bundles = new Map<string, Promise<string>>();

const removeStale = (): void => {
  for (const name of readdirSync(CACHE)) {
    const file = join(CACHE, name);
    try {
      if (Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
    } catch {
      // Removed by another test process meanwhile.
    }
  }
};

const bundle = async (entry: string): Promise<string> => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`esbuild made nothing of ${entry}`);
  mkdirSync(CACHE, { recursive: true });
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(CACHE, `${basename(entry, extname(entry))}-${hash}.mjs`);
  const part = `${file}.${process.pid}-${threadId}.part`;
  writeFileSync(part, code);
  renameSync(part, file);
  removeStale();
  return file;
};

/** The bundled entry's path (`entry`: a TypeScript file's absolute path); made at the first call of this process. */
export const bundledEntry = (entry: string): Promise<string> => {
  let file = bundles.get(entry);
  if (file === undefined) {
    file = bundle(entry);
    bundles.set(entry, file);
  }
  return file;
};
