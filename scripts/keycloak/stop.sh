#!/usr/bin/env bash
# Stops the Keycloak that start.sh launched; does nothing when none is running.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [[ ! -f "$KC_PID_FILE" ]]; then
  echo "Keycloak not running (no pid file)"
  exit 0
fi
pid="$(cat "$KC_PID_FILE")"
if ! kill -0 "$pid" 2>/dev/null; then
  echo "Keycloak not running (stale pid $pid)"
  rm -f "$KC_PID_FILE"
  exit 0
fi

# The pid is a process group leader (setsid in start.sh): signal the group, then wait for a graceful exit.
kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
for _ in $(seq 1 30); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if kill -0 "$pid" 2>/dev/null; then
  echo "Keycloak (pid $pid) ignored SIGTERM for 30s; killing it"
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
fi
rm -f "$KC_PID_FILE"
echo "Keycloak stopped"
