import { defineConfig } from 'vitest/config';
import { putTmpdirInMemory } from './scripts/testTmpdir';

// `npm run test:soak`: the soak and fault runs at full size (`*.soak.test.ts`), which `npm test`
// runs in a small version only. CI runs it after `npm test` (.ci/run).
putTmpdirInMemory();

export default defineConfig({
  test: {
    name: 'soak',
    environment: 'node',
    include: ['core/**/*.soak.test.ts', 'sandbox/**/*.soak.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
