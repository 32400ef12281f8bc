#!/usr/bin/env bash
# `npm run sdk`: builds the installable SDK packages from openapi.yaml into clients/dist/, named and versioned from
# info.version: sighting-client-<v>.tgz (npm, typescript-fetch, ESM with types), sighting_client-<v>-py3-none-any.whl
# (Python) and sighting-client-<v>.jar (Java, native library; its pom beside it). Usage: clients/package.sh [typescript|python|java ...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

packages=("$@")
[[ ${#packages[@]} -gt 0 ]] || packages=(typescript python java)
version=$(sed -n 's/^  version: \(.*\)$/\1/p' "$REPO_ROOT/openapi.yaml" | head -1)
DIST_DIR="$CLIENTS_DIR/dist"
work="$BUILD_DIR/package"
mkdir -p "$DIST_DIR" "$work"
hold_build_lock
fetch_generator

generate_into() {
  local generator=$1 out=$2; shift 2
  rm -rf "$out"
  "$JAVA" -jar "$GENERATOR_JAR" generate --input-spec "$REPO_ROOT/openapi.yaml" --generator-name "$generator" --output "$out" \
    --additional-properties=hideGenerationTimestamp=true "$@" > "$out.log" 2>&1 || { cat "$out.log"; return 1; }
}

package_typescript() {
  local out="$work/typescript"
  generate_into typescript-fetch "$out" --additional-properties=supportsES6=true,importFileExtension=.js,npmName=sighting-client,npmVersion="$version"
  # The generator's package.json builds with a TypeScript it would install; the project's tsc builds the same ESM + types.
  # The package.json first: its `"type": "module"` makes tsc emit ESM.
  sed "s/@VERSION@/$version/" "$CLIENTS_DIR/package/package.json" > "$out/package.json"
  cp "$CLIENTS_DIR/package/tsconfig.json" "$out/tsconfig.json"
  "$REPO_ROOT/node_modules/.bin/tsc" -p "$out/tsconfig.json"
  cp "$CLIENTS_DIR/package/README.typescript.md" "$out/README.md"
  (cd "$out" && npm pack --silent --pack-destination "$DIST_DIR" > /dev/null)
  echo "clients: $DIST_DIR/sighting-client-$version.tgz"
}

package_python() {
  local out="$work/python"
  generate_into python "$out" --additional-properties=packageName=sighting_client,projectName=sighting-client,packageVersion="$version"
  cp "$CLIENTS_DIR/package/README.python.md" "$out/README.md"
  python3 "$CLIENTS_DIR/package/build_wheel.py" "$out" sighting_client "$version" "$DIST_DIR"
}

package_java() {
  local out="$work/java"
  generate_into java "$out" --library native --global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false \
    --additional-properties=invokerPackage=org.sighting.client,apiPackage=org.sighting.client.api,modelPackage=org.sighting.client.model,groupId=org.sighting,artifactId=sighting-client,artifactVersion="$version",openApiNullable=false,useSingleRequestParameter=true
  cp "$CLIENTS_DIR/package/README.java.md" "$out/README.md"
  (cd "$out" && maven -q -Dmaven.test.skip=true -Dmaven.javadoc.skip=true package)
  cp "$out/target/sighting-client-$version.jar" "$DIST_DIR/"
  cp "$out/pom.xml" "$DIST_DIR/sighting-client-$version.pom"
  echo "clients: $DIST_DIR/sighting-client-$version.jar (+ .pom)"
}

# A package whose inputs are unchanged since it was last built (and whose file is still there) is not built again.
for package in "${packages[@]}"; do
  hash=$(cat "$REPO_ROOT/openapi.yaml" "$CLIENTS_DIR/env.sh" "${BASH_SOURCE[0]}" "$CLIENTS_DIR"/package/* | sha256sum | cut -d' ' -f1)
  stamp="$work/$package.built"
  if [[ -f "$stamp" && "$(head -1 "$stamp")" == "$hash" && -f "$(tail -1 "$stamp")" ]]; then
    echo "clients: $(tail -1 "$stamp") is up to date"
    continue
  fi
  # The build's lines go to stderr as they come (not through tee /dev/stderr: a socket there cannot be reopened).
  file=$("package_$package" | while IFS= read -r line; do printf '%s\n' "$line" >&2; printf '%s\n' "$line"; done | sed -n 's/^clients: \([^ ]*\).*/\1/p' | tail -1)
  printf '%s\n%s\n' "$hash" "$file" > "$stamp"
done
