import { defineConfig } from 'vitest/config';

// `npm run test:soak`: the soak and fault runs at full size (`*.soak.test.ts`), which `npm test`
// runs in a small version only. CI runs it after `npm test` (.ci/run).
export default defineConfig({
  test: {
    name: 'soak',
    environment: 'node',
    // Temporary folders in memory where the machine allows (scripts/testTmpdir.ts).
    globalSetup: ['scripts/testTmpdir.ts'],
    include: ['core/**/*.soak.test.ts', 'sandbox/**/*.soak.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
