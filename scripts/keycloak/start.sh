#!/usr/bin/env bash
# Starts Keycloak in dev mode in the background with the sighting realm freshly imported, and waits until it serves.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [[ ! -x "$KC_HOME/bin/kc.sh" ]]; then
  echo "Keycloak $KEYCLOAK_VERSION is not unpacked; run scripts/keycloak/fetch.sh first" >&2
  exit 1
fi
if [[ -f "$KC_PID_FILE" ]] && kill -0 "$(cat "$KC_PID_FILE")" 2>/dev/null; then
  echo "Keycloak already running (pid $(cat "$KC_PID_FILE")); run scripts/keycloak/stop.sh first" >&2
  exit 1
fi

# Fail fast rather than wait out the timeout behind someone else's server on our port.
if (exec 3<>"/dev/tcp/127.0.0.1/$KEYCLOAK_PORT") 2>/dev/null; then
  echo "Port $KEYCLOAK_PORT is already in use; set KEYCLOAK_PORT to another port" >&2
  exit 1
fi

# A clean data/ each time: the dev H2 database would otherwise keep the previous run's realm and skip the import.
rm -rf "$KC_HOME/data"
mkdir -p "$KC_HOME/data/import"
cp "$REALM_FILE" "$KC_HOME/data/import/sighting-realm.json"

export JAVA_HOME="$KC_JAVA_HOME"
# Modest heap: the machine has 2 cores and is shared with the test run.
export JAVA_OPTS_KC_HEAP="${KEYCLOAK_HEAP:--Xms64m -Xmx512m}"
# Master realm admin for the admin console, development only.
export KC_BOOTSTRAP_ADMIN_USERNAME="${KC_BOOTSTRAP_ADMIN_USERNAME:-admin}"
export KC_BOOTSTRAP_ADMIN_PASSWORD="${KC_BOOTSTRAP_ADMIN_PASSWORD:-admin}"

# setsid gives Keycloak its own process group, so stop.sh can end exactly it and nothing else. Logins of one user at
# once are let through: the brute-force detection refuses them by default since Keycloak 24 (docs/authorization.md).
setsid "$KC_HOME/bin/kc.sh" start-dev \
  --import-realm \
  --spi-brute-force-protector-default-brute-force-detector-allow-concurrent-requests=true \
  --http-host=127.0.0.1 \
  --http-port="$KEYCLOAK_PORT" \
  --http-management-port="$KEYCLOAK_MANAGEMENT_PORT" \
  >"$KC_LOG" 2>&1 </dev/null &
echo $! >"$KC_PID_FILE"

url="http://127.0.0.1:$KEYCLOAK_PORT/realms/sighting/.well-known/openid-configuration"
# A bound for a loaded machine (its first start builds and imports): a live process that is still starting is waited for.
timeout="${KEYCLOAK_START_TIMEOUT:-600}"
started=$SECONDS
until curl -fsS -o /dev/null "$url" 2>/dev/null; do
  if ! kill -0 "$(cat "$KC_PID_FILE")" 2>/dev/null; then
    echo "Keycloak exited during start-up; last log lines:" >&2
    tail -n 60 "$KC_LOG" >&2
    rm -f "$KC_PID_FILE"
    exit 1
  fi
  if (( SECONDS - started >= timeout )); then
    echo "Keycloak did not serve $url within ${timeout}s; last log lines:" >&2
    tail -n 60 "$KC_LOG" >&2
    "$(dirname "${BASH_SOURCE[0]}")/stop.sh" >&2 || true
    exit 1
  fi
  sleep 1
done
echo "Keycloak up after $((SECONDS - started))s at http://127.0.0.1:$KEYCLOAK_PORT (pid $(cat "$KC_PID_FILE"), log $KC_LOG)"
echo "export KEYCLOAK_URL=http://127.0.0.1:$KEYCLOAK_PORT"
