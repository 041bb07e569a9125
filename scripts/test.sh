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
    return 1
  fi
}

with_keychain() {
  if [ -f scripts/with-keychain.sh ]; then sh scripts/with-keychain.sh "$@"; else "$@"; fi
}

# Every step's output is kept in .test-summary/ (the runners' JSON reports too: scripts/test-summary.ts
# adds them up at the end).
rm -rf .test-summary
mkdir -p .test-summary

# Type check and lint only read the sources, and neither has a test that depends on timing, so they
# run side by side: the type check's two lanes and the lint's mostly one-threaded tools
# (dependency-cruiser, the fixed-sleep and docs checks) share the two cores instead of taking turns.
# Each one's output is kept and shown whole, in this order, once it ends.
started_together=$SECONDS
step "Type check" npm run --silent typecheck >.test-summary/typecheck.log 2>&1 &
typecheck=$!
step "Lint" npm run --silent lint >.test-summary/lint.log 2>&1 &
lint=$!
wait "$typecheck" || failed+=("Type check")
cat .test-summary/typecheck.log
wait "$lint" || failed+=("Lint")
cat .test-summary/lint.log
printf '\033[1m== Type check and lint together: %ss\033[0m\n' $((SECONDS - started_together))

# Vitest's output is kept too: a run can fail with every test passed (an error thrown outside any test,
# a worker that died), and CI shows only the log's last lines, so that part is printed again at the end.
run_vitest() {
  with_keychain npx vitest run --reporter=default --reporter=json --outputFile.json=.test-summary/vitest.json 2>&1 |
    tee .test-summary/vitest.log
}
step "Unit and integration tests (Vitest)" run_vitest
step "End-to-end tests (Playwright)" with_keychain npx playwright test

echo
npx tsx scripts/test-summary.ts .test-summary/vitest.json .test-summary/playwright.json

for checked in "Type check:typecheck" "Lint:lint"; do
  if [[ " ${failed[*]} " == *" ${checked%%:*} "* ]]; then
    printf '\n%s failed; its last 40 lines:\n' "${checked%%:*}"
    sed 's/\x1b\[[0-9;]*m//g' ".test-summary/${checked#*:}.log" | tail -n 40
  fi
done
if [[ " ${failed[*]} " == *"(Vitest)"* ]]; then
  printf '\nVitest failed; its output without the files that passed (last 60 lines):\n'
  sed 's/\x1b\[[0-9;]*m//g' .test-summary/vitest.log | grep -v -E '^ *(✓|↓) ' | tail -n 60
fi
if [ "${#failed[@]}" -gt 0 ]; then
  printf '\n\033[1;31mFailed: %s\033[0m\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n\033[1mAll tests passed.\033[0m\n'
