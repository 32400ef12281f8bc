#!/usr/bin/env bash
# A consumer project outside the repository's sources: installs one SDK package from clients/dist/ (npm run sdk) into
# a fresh temporary folder, as a team would, and runs the scenario with it against a running service; then the code
# of the package's README (clients/package/README.<kind>.md), so that what a team copies from there cannot rot.
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

# The first fenced block of a language in the package's README, its example base URL replaced by the service's.
readme_code() {
  awk -v fence="\`\`\`$2" '$0 == fence { inside = 1; next } inside && $0 == "```" { exit } inside { print }' \
    "$CLIENTS_DIR/package/README.$1.md" | sed "s#https://registry.example/api#$api#"
}

# The README's code prints the new record's Location, its id, how many rows each view listed, the read's ETag and API-Version.
check_readme_output() {
  local line
  line=$(tail -1)
  echo "  README: $line"
  [[ $line =~ /sighting/[0-9]+\ [0-9]+\ [1-9][0-9]*\ [1-9][0-9]*\ \"[0-9]+\"\ [0-9]+\.[0-9]+\.[0-9]+$ ]] \
    || { echo "  FAILED  the README's code printed: $line" >&2; exit 1; }
  echo "readme recipe: every step passed"
}

# A token for the README's code (which takes one as `token`), by the password grant the scenarios use. Taken right
# before the code runs: tokens live 300 s, and an install or a Maven build before it may take longer on a slow machine.
fresh_token() {
  curl -fsS --data "grant_type=password&client_id=sighting-cli&username=alice&password=alice" "$token_url" \
    | "$node" -e 'let s = ""; process.stdin.on("data", (d) => { s += d; }).on("end", () => console.log(JSON.parse(s).access_token))'
}

case $kind in
  typescript)
    cd "$consumer"
    echo '{ "name": "sighting-consumer", "private": true, "type": "module" }' > package.json
    # The tarball has no dependencies: nothing but the file itself is installed.
    npm install --no-audit --no-fund --offline --silent "$DIST_DIR/sighting-client-$version.tgz"
    cp "$CLIENTS_DIR/typescript/scenario.ts" "$CLIENTS_DIR/typescript/tsconfig.json" .
    { echo 'const token = process.env.SIGHTING_TOKEN!;'; readme_code typescript ts; } > readme.ts
    "$REPO_ROOT/node_modules/.bin/tsc" -p tsconfig.json --typeRoots "$REPO_ROOT/node_modules/@types"
    "$node" scenario.js "$api" "$token_url"
    token=$(fresh_token)
    SIGHTING_TOKEN=$token "$node" readme.js | check_readme_output ;;
  python)
    # The interpreter's own pydantic, urllib3 and python-dateutil serve the wheel's requirements (no index is needed).
    python3 -m venv --system-site-packages "$consumer/venv"
    "$consumer/venv/bin/pip" install --quiet --no-index --no-deps "$DIST_DIR/sighting_client-$version-py3-none-any.whl"
    "$consumer/venv/bin/pip" check > /dev/null || { "$consumer/venv/bin/pip" check; exit 1; }
    cd "$consumer" && "$consumer/venv/bin/python" "$CLIENTS_DIR/python/scenario.py" "$api" "$token_url"
    { echo 'import os'; echo 'token = os.environ["SIGHTING_TOKEN"]'; readme_code python python; } > readme.py
    token=$(fresh_token)
    SIGHTING_TOKEN=$token "$consumer/venv/bin/python" -W error::DeprecationWarning readme.py | check_readme_output ;;
  java)
    # The jar and its pom, as a Maven repository would serve them; Maven resolves what the pom names.
    cp "$DIST_DIR/sighting-client-$version.pom" "$consumer/pom.xml"
    (cd "$consumer" && maven -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$consumer/classpath.txt")
    classpath="$DIST_DIR/sighting-client-$version.jar:$(cat "$consumer/classpath.txt")"
    # The README's statements in a class of their own, with the imports a team's file would have.
    { echo 'import java.util.*; import org.sighting.client.*; import org.sighting.client.api.*; import org.sighting.client.model.*;'
      echo 'public class Readme { public static void main(String[] args) throws Exception { String token = System.getenv("SIGHTING_TOKEN");'
      readme_code java java; echo '} }'; } > "$consumer/Readme.java"
    "$JAVA_HOME/bin/javac" -encoding UTF-8 -d "$consumer/classes" -cp "$classpath" "$CLIENTS_DIR/java/Scenario.java" "$CLIENTS_DIR/java/Paged.java" "$CLIENTS_DIR/java/native/Sdk.java" "$consumer/Readme.java"
    "$JAVA" -cp "$classpath:$consumer/classes" org.sighting.scenario.Scenario java "$api" "$token_url"
    token=$(fresh_token)
    SIGHTING_TOKEN=$token "$JAVA" -cp "$classpath:$consumer/classes" Readme | check_readme_output ;;
  *) echo "clients: unknown package $kind" >&2; exit 2 ;;
esac
