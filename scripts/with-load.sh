#!/usr/bin/env bash
# Runs a command on a loaded machine: one busy loop pinned to each core (or to LOAD_CORES cores) for as long as the
# command runs, stopped afterwards whatever happens. How the tests are checked to hold under load (docs/testing.md).
# Usage: scripts/with-load.sh npx mocha test/api/streamed-lists-clients-that-leave.test.ts
set -euo pipefail
cores="${LOAD_CORES:-$(nproc)}"
busy=()
cleanup() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true; }
trap cleanup EXIT
for ((core = 0; core < cores; core++)); do
  taskset -c "$core" node -e 'for (;;) {}' &
  busy+=($!)
done
"$@"
