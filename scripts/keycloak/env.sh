# Shared settings for the Keycloak dev scripts; sourced, so every script agrees on paths and ports.
KEYCLOAK_VERSION="${KEYCLOAK_VERSION:-26.0.8}"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KC_BASE="$REPO_ROOT/.keycloak"
KC_HOME="$KC_BASE/keycloak-$KEYCLOAK_VERSION"
KC_LOG="$KC_BASE/keycloak.log"
KC_PID_FILE="$KC_BASE/keycloak.pid"
KEYCLOAK_PORT="${KEYCLOAK_PORT:-8180}"
# 9000 is Keycloak's default management port and popular elsewhere; derive ours from the HTTP port instead.
KEYCLOAK_MANAGEMENT_PORT="${KEYCLOAK_MANAGEMENT_PORT:-$((KEYCLOAK_PORT + 1000))}"
REALM_FILE="$REPO_ROOT/keycloak/sighting-realm.json"
# Keycloak 26.0 supports Java 17 and 21 only, so never inherit a newer default JDK.
KC_JAVA_HOME="${KEYCLOAK_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
