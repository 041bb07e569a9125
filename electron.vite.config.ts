import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// The one build set-up: Electron main, the preload and the renderer. The Chromium fallback shell
// serves the same out/renderer, so both shells run byte-for-byte the same UI.
// TREASURY_DESK_OUT_DIR lets the end-to-end run build into its own folder, so a test run never
// reads a half-written out/ while someone else rebuilds.
const outDir = resolve(import.meta.dirname, process.env.TREASURY_DESK_OUT_DIR ?? 'out');

export default defineConfig({
  main: {
    build: {
      outDir: resolve(outDir, 'main'),
      // The dependencies stay in node_modules; so does playwright-core (a dev dependency the
      // Chromium shell loads, and only once the other processes are starting). Except those bundled
      // into our own chunks: loading them file by file (undici alone is some 70 files, each resolved,
      // read and scanned for its exports) cost the core's process about 120 ms of CPU on every start
      // (issue 26); bundled, the core's code loads in ~260 ms of CPU instead of ~380. Native modules
      // (better-sqlite3, @napi-rs/keyring) cannot be bundled; fastify and pg load their parts by path.
      externalizeDeps: { include: ['playwright-core'], exclude: ['zod', 'undici', 'ws', 'decimal.js', 'papaparse'] },
      // index: Electron main (glue). core: the core's own process (utilityProcess under Electron, a
      // Node child under the Chromium shell). sandbox: the built-in exchange's process. shellCli: the
      // Chromium fallback shell as `npm start` runs it, plain Node on built code (loading its sources
      // through tsx cost about a third of a second of CPU on every start); shell: its openShell, for
      // bench:startup to time the same code.
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'electron/main/index.ts'),
          core: resolve(import.meta.dirname, 'core/host/coreProcess.ts'),
          sandbox: resolve(import.meta.dirname, 'sandbox/cli.ts'),
          shell: resolve(import.meta.dirname, 'shell/shell.ts'),
          shellCli: resolve(import.meta.dirname, 'shell/cli.ts'),
          // Loaded before each of the three Node entries above (`node --import`): a V8 code cache for
          // the CommonJS modules they load (core/host/compileCache.ts).
          compileCache: resolve(import.meta.dirname, 'core/host/compileCache.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(outDir, 'preload'),
      // A sandboxed preload can only be a CommonJS script that requires nothing but 'electron':
      // bundle everything it uses (the contract's operation names) into one file.
      externalizeDeps: false,
      rollupOptions: {
        // index: the app window's (window.desk). confirm: the trusted confirmation window's (one answer function).
        input: {
          index: resolve(import.meta.dirname, 'electron/preload/index.ts'),
          confirm: resolve(import.meta.dirname, 'electron/preload/confirm.ts'),
        },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    base: '.',
    plugins: [react()],
    build: {
      outDir: resolve(outDir, 'renderer'),
      emptyOutDir: true,
      // No inline data: scripts or fonts; everything is a file the app:// protocol can serve.
      assetsInlineLimit: 0,
      // Less to read and compile before the first screen paints (issue 26); each screen but the
      // first is its own chunk (renderer/src/frame/screens.ts).
      minify: true,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } },
    },
  },
});
