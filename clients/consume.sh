#!/usr/bin/env bash
# A consumer project outside the repository's sources: installs one SDK package from clients/dist/ (npm run sdk) into
# a fresh temporary folder, as a team would, and runs the scenario with it against a running service.
# Usage: clients/consume.sh <typescript|python|java> <api base URL> <token endpoint URL>
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

kind=${1:?usage: clients/consume.sh <typescript|python|java> <api base URL> <token endpoint URL>}
api=${2:?api base URL}
token_url=${3:?token endpoint URL}
version=$(sed -n 's/^  version: \(.*\)$/\1/p' "$REPO_ROOT/openapi.yaml" | head -1)
DIST_DIR="$CLIENTS_DIR/dist"
consumer=$(mktemp -d -t sighting-consumer-XXXXXX)
# Not `exec` below: an exec'd scenario would replace this shell, and the trap would never remove the folder.
trap 'rm -rf "$consumer"' EXIT
node="$REPO_ROOT/node_modules/.bin/node"

case $kind in
  typescript)
    cd "$consumer"
    echo '{ "name": "sighting-consumer", "private": true, "type": "module" }' > package.json
    # The tarball has no dependencies: nothing but the file itself is installed.
    npm install --no-audit --no-fund --offline --silent "$DIST_DIR/sighting-client-$version.tgz"
    cp "$CLIENTS_DIR/typescript/scenario.ts" "$CLIENTS_DIR/typescript/tsconfig.json" .
    "$REPO_ROOT/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$REPO_ROOT/node_modules/@types"
    "$node" scenario.js "$api" "$token_url" ;;
  python)
    # The interpreter's own pydantic, urllib3 and python-dateutil serve the wheel's requirements (no index is needed).
    python3 -m venv --system-site-packages "$consumer/venv"
    "$consumer/venv/bin/pip" install --quiet --no-index --no-deps "$DIST_DIR/sighting_client-$version-py3-none-any.whl"
    "$consumer/venv/bin/pip" check > /dev/null || { "$consumer/venv/bin/pip" check; exit 1; }
    cd "$consumer" && "$consumer/venv/bin/python" "$CLIENTS_DIR/python/scenario.py" "$api" "$token_url" ;;
  java)
    # The jar and its pom, as a Maven repository would serve them; Maven resolves what the pom names.
    cp "$DIST_DIR/sighting-client-$version.pom" "$consumer/pom.xml"
    (cd "$consumer" && maven -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$consumer/classpath.txt")
    classpath="$DIST_DIR/sighting-client-$version.jar:$(cat "$consumer/classpath.txt")"
    "$JAVA_HOME/bin/javac" -encoding UTF-8 -d "$consumer/classes" -cp "$classpath" "$CLIENTS_DIR/java/Scenario.java" "$CLIENTS_DIR/java/native/Sdk.java"
    "$JAVA" -cp "$classpath:$consumer/classes" org.sighting.scenario.Scenario java "$api" "$token_url" ;;
  *) echo "clients: unknown package $kind" >&2; exit 2 ;;
esac
