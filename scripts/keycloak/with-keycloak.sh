#!/usr/bin/env bash
# Runs a command against a freshly started Keycloak (KEYCLOAK_URL exported) and stops Keycloak afterwards, whatever happens.
# Usage: scripts/keycloak/with-keycloak.sh npx mocha --extension ts test/auth/grants.test.ts
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/env.sh"

"$here/fetch.sh"
trap '"$here/stop.sh"' EXIT
"$here/start.sh"
export KEYCLOAK_URL="http://127.0.0.1:$KEYCLOAK_PORT"
"$@"
