#!/usr/bin/env bash
# Every test: type check, lint (Biome + the layer rule), unit/integration tests (Vitest) and
# end-to-end tests (Playwright in the system Chromium; the Electron project skips where its
# binary is unavailable). Tests that touch the OS keychain run inside a private D-Bus session
# with an unlocked keyring (scripts/with-keychain.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "Type check"
npm run --silent typecheck
step "Lint"
npm run --silent lint

run_with_keychain() {
  if [ -f scripts/with-keychain.sh ]; then bash scripts/with-keychain.sh "$@"; else "$@"; fi
}

step "Unit and integration tests (Vitest)"
run_with_keychain npx vitest run
step "End-to-end tests (Playwright)"
run_with_keychain npx playwright test
