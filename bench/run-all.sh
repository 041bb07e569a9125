#!/usr/bin/env bash
# Runs every benchmark one after the other (never in parallel: each measures ratios within its own
# run, and two at once would skew each other on a 2-core machine). Figures are printed by each
# benchmark and kept as JSON in bench/results/.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

benches=(sandbox matching spot-rest client history orderbook large-lists trade-requests requests-per-action idle match-to-screen ws-fanout core-process firm-view batch startup ipc)
failed=()
for name in "${benches[@]}"; do
  printf '\n\033[1m== bench:%s\033[0m\n' "$name"
  if ! npm run --silent "bench:$name"; then failed+=("$name"); fi
done

printf '\nResults: bench/results/*.json\n'
if [ "${#failed[@]}" -gt 0 ]; then
  echo "Benchmarks that failed to run: ${failed[*]}"
  exit 1
fi
