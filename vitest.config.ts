import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Two projects: Node-side code (main core, sandbox, shared, scripts) and the renderer in happy-dom.
// End-to-end tests are Playwright's (e2e/), not Vitest's.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'electron/**/*.test.ts',
            'sandbox/**/*.test.ts',
            'shared/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          // Full-size soak and fault runs: `npm run test:soak` (vitest.soak.config.ts).
          exclude: ['**/node_modules/**', '**/*.soak.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
