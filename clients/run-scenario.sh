#!/usr/bin/env bash
# Runs the scenario of one built client (clients/build.sh) against a running service; exits non-zero on the first failed step.
# Usage: clients/run-scenario.sh <java-okhttp-gson|java-native|go|kotlin> [api base URL] [token endpoint URL]
#   defaults: http://localhost:8080/api and the embedded provider's token endpoint on the same origin.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

target=${1:?usage: clients/run-scenario.sh <target> [api base URL] [token endpoint URL]}
api=${2:-http://localhost:8080/api}
token_url=${3:-${api%/api}/realms/sighting/protocol/openid-connect/token}
[[ -f "$BUILD_DIR/$target/.built" ]] || { echo "clients: $target is not built; run clients/build.sh $target" >&2; exit 2; }

case $target in
  java-*)
    exec "$JAVA" -cp "$(java_classpath "$target"):$BUILD_DIR/$target/scenario" org.sighting.scenario.Scenario "$target" "$api" "$token_url" ;;
  go) exec "$BUILD_DIR/go/scenario" "$api" "$token_url" ;;
  kotlin) exec "$JAVA" -cp "$(java_classpath kotlin)" org.sighting.scenario.ScenarioKt "$api" "$token_url" ;;
  *) echo "clients: unknown target $target" >&2; exit 2 ;;
esac
