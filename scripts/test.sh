#!/usr/bin/env bash
# Every test: type check, lint (Biome + the layer rule), unit/integration tests (Vitest) and
# end-to-end tests (Playwright in the system Chromium; the Electron project skips where its
# binary is unavailable). Tests that touch the OS keychain run inside a private D-Bus session
# with an unlocked keyring (scripts/with-keychain.sh). Every step runs even when an earlier one
# fails, so one run shows every problem; the exit code is non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

failed=()
step() {
  local name=$1
  shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  local started=$SECONDS
  if "$@"; then
    printf '\033[1m== %s: ok (%ss)\033[0m\n' "$name" $((SECONDS - started))
  else
    printf '\033[1;31m== %s: FAILED (%ss)\033[0m\n' "$name" $((SECONDS - started))
    failed+=("$name")
  fi
}

with_keychain() {
  if [ -f scripts/with-keychain.sh ]; then sh scripts/with-keychain.sh "$@"; else "$@"; fi
}

step "Type check" npm run --silent typecheck
step "Lint" npm run --silent lint
# Both runners also write a JSON report; scripts/test-summary.ts adds them up at the end.
rm -rf .test-summary
# Vitest's output is kept too: a run can fail with every test passed (an error thrown outside any test,
# a worker that died), and CI shows only the log's last lines, so that part is printed again at the end.
run_vitest() {
  mkdir -p .test-summary
  with_keychain npx vitest run --reporter=default --reporter=json --outputFile.json=.test-summary/vitest.json 2>&1 |
    tee .test-summary/vitest.log
}
step "Unit and integration tests (Vitest)" run_vitest
step "End-to-end tests (Playwright)" with_keychain npx playwright test

echo
npx tsx scripts/test-summary.ts .test-summary/vitest.json .test-summary/playwright.json

if [[ " ${failed[*]} " == *"(Vitest)"* ]]; then
  printf '\nVitest failed; its output without the files that passed (last 60 lines):\n'
  sed 's/\x1b\[[0-9;]*m//g' .test-summary/vitest.log | grep -v -E '^ *(✓|↓) ' | tail -n 60
fi
if [ "${#failed[@]}" -gt 0 ]; then
  printf '\n\033[1;31mFailed: %s\033[0m\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n\033[1mAll tests passed.\033[0m\n'
