#!/usr/bin/env bash
# Runs a command against a freshly started Keycloak (KEYCLOAK_URL, KEYCLOAK_PORT exported) on free ports and stops
# Keycloak afterwards, whatever happens.
# Usage: scripts/keycloak/with-keycloak.sh npx mocha --extension ts test/auth/grants.test.ts
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# Free ports unless set (start.sh alone keeps 8180 for a developer): two runs on one host must not collide.
read -r http_port management_port < <("$here/../free-port.sh" 2 | paste -sd" ")
export KEYCLOAK_PORT="${KEYCLOAK_PORT:-$http_port}"
export KEYCLOAK_MANAGEMENT_PORT="${KEYCLOAK_MANAGEMENT_PORT:-$management_port}"
source "$here/env.sh"

"$here/fetch.sh"
trap '"$here/stop.sh"' EXIT
"$here/start.sh"
export KEYCLOAK_URL="http://127.0.0.1:$KEYCLOAK_PORT"
"$@"
