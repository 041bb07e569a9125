/**
 * Whether `npm start` has to rebuild: a fingerprint of everything electron-vite reads, compared with
 * the one written into out/ after the last successful build. Path, size and mtime per file (no
 * content hashing): it takes milliseconds, and any edit, new file or deleted file changes it.
 */
import { execFileSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the build reads, relative to the project root: core/ and shell/ are built too (out/main/core.js,
 * shell.js and shellCli.js, which `npm start` runs). sandbox/ is in it because main bundles the
 * embedded sandbox (core/profiles/manager.ts imports sandbox/server). node_modules'
 * hidden lockfile is rewritten by every npm install, and preload and renderer bundle their deps.
 * Root tsconfig*.json files are added by name (see sourceFingerprint).
 */
export const BUILD_SOURCES: readonly string[] = [
  'electron',
  'core',
  'shell',
  'renderer',
  'shared',
  'sandbox',
  'assets',
  'package.json',
  'package-lock.json',
  'electron.vite.config.ts',
  'node_modules/.package-lock.json',
];

/** Files every build writes (electron.vite.config.ts); one missing means out/ is incomplete. */
export const BUILD_OUTPUTS: readonly string[] = [
  'main/index.js',
  'main/shellCli.js',
  'preload/index.cjs',
  'renderer/index.html',
];

export const STAMP_FILE = '.build-stamp';

const addEntry = (hash: Hash, root: string, path: string): void => {
  const full = join(root, path);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(full);
  } catch {
    // Absent (an optional source, a dangling link): nothing the build can read.
    return;
  }
  if (stats.isDirectory()) {
    // Sorted: readdir's order depends on the file system, the fingerprint must not.
    for (const name of readdirSync(full).sort()) addEntry(hash, root, `${path}/${name}`);
    return;
  }
  hash.update(`${path}\0${stats.size}\0${stats.mtimeMs}\n`);
};

/** A hash over the relative path, size and mtime of every file the build reads under root. */
export const sourceFingerprint = (root: string, sources: readonly string[] = BUILD_SOURCES): string => {
  const tsconfigs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  const hash = createHash('sha256');
  for (const path of [...sources, ...tsconfigs.sort()]) addEntry(hash, root, path);
  return hash.digest('hex');
};

const readStamp = (outDir: string): string | undefined => {
  try {
    return readFileSync(join(outDir, STAMP_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** True unless out/ holds every output and its stamp says it was built from exactly these sources. */
export const needsBuild = (outDir: string, fingerprint: string): boolean =>
  readStamp(outDir) !== fingerprint || BUILD_OUTPUTS.some((file) => !existsSync(join(outDir, file)));

/** Removed before a build, so an interrupted or failed build never leaves a stamp claiming out/ is current. */
export const clearStamp = (outDir: string): void => rmSync(join(outDir, STAMP_FILE), { force: true });

/** Written only after a build succeeded. */
export const writeStamp = (outDir: string, fingerprint: string): void =>
  writeFileSync(join(outDir, STAMP_FILE), `${fingerprint}\n`);

/**
 * Builds into `<root>/out` unless it is already built from the current sources (a build takes
 * seconds); `npm start` and the benchmarks call this. The fingerprint is taken before building: a
 * file edited during the build makes the next call build again rather than run stale code.
 * Returns whether it built.
 */
export const buildIfNeeded = (root: string, force = false): boolean => {
  const outDir = join(root, 'out');
  const fingerprint = sourceFingerprint(root);
  if (!force && !needsBuild(outDir, fingerprint)) return false;
  clearStamp(outDir);
  // Both shells load out/: keep an exported TREASURY_DESK_OUT_DIR (the e2e run's) from building elsewhere.
  const { TREASURY_DESK_OUT_DIR: _elsewhere, ...env } = process.env;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, env, stdio: 'inherit' },
  );
  writeStamp(outDir, fingerprint);
  return true;
};
