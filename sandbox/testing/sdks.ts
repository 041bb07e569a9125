/**
 * The platform's official SDK (gate-api), which the sandbox's tests and conformance report run
 * against the sandbox. It is CommonJS and re-exports its 1,464 model files: an ES import first scans
 * every one of them for its exports (cjs-module-lexer), which cost each test worker that loaded it
 * 0.38–0.46 s of CPU against 0.23 s for require() (measured alone, `node -e`). So it is required here,
 * once; its types come from the type-only import.
 */
import { createRequire } from 'node:module';
import type * as GateApi from 'gate-api';

export type { GateApi };
export const gateApi = createRequire(import.meta.url)('gate-api') as typeof GateApi;
