#!/usr/bin/env bash
# Generates the Java SDKs (okhttp-gson, native) from openapi.yaml with OpenAPI Generator and compiles each with the
# scenario in place, for the library that is not packaged (the packages: clients/package.sh, clients/consume.sh); a
# target whose inputs are unchanged since its last build is skipped. `typescript-axios` is generated only (into
# clients/build/typescript-axios/sdk): test/clients/sdk-request-objects.test.ts type-checks a consumer against it.
# `go` and `kotlin` are generated and compiled with their scenarios (clients/go/scenario.go, clients/kotlin/Scenario.kt):
# Go by Debian's toolchain in GOPATH mode (scripts/install-go.sh installs it), Kotlin by Maven's kotlin-maven-plugin
# (clients/kotlin/pom.xml: the generator writes a Gradle build, and the machines have no Gradle).
# Usage: clients/build.sh [java-okhttp-gson|java-native|typescript-axios|go|kotlin ...]   (default: the two Java ones)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${CLIENT_TARGETS[@]}")

# Everything a target's build depends on; a change to any of them rebuilds it.
inputs_hash() {
  local target=$1
  cat "$REPO_ROOT/openapi.yaml" "$CLIENTS_DIR/env.sh" "${BASH_SOURCE[0]}" $(scenario_sources "$target") | sha256sum | cut -d' ' -f1
}

generate() {
  local target=$1 out=$2
  local generator=${target%%-*} options=(--additional-properties=hideGenerationTimestamp=true)
  case $target in
    # Request objects: each call names the parameters it sets, so one a release adds breaks no caller.
    typescript-axios) generator=typescript-axios options+=(--additional-properties=useSingleRequestParameter=true,supportsES6=true) ;;
    go) options+=(--additional-properties=packageName=sighting --global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false) ;;
    kotlin) options+=(--additional-properties=packageName=org.sighting.client --global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false) ;;
    java-*)
      options+=(--library "${target#java-}" --global-property=apiTests=false,modelTests=false,apiDocs=false,modelDocs=false
        --additional-properties=invokerPackage=org.sighting.client,apiPackage=org.sighting.client.api,modelPackage=org.sighting.client.model,groupId=org.sighting,artifactId=sighting-client,openApiNullable=false,useSingleRequestParameter=true) ;;
  esac
  "$JAVA" -jar "$GENERATOR_JAR" generate --input-spec "$REPO_ROOT/openapi.yaml" --generator-name "$generator" \
    --output "$out/sdk" "${options[@]}" > "$out/generate.log" 2>&1 || { cat "$out/generate.log"; return 1; }
}

compile() {
  local target=$1 out=$2
  case $target in
    java-*)
      (cd "$out/sdk" && maven -q -Dmaven.test.skip=true package \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$out/classpath.txt")
      mkdir -p "$out/scenario"
      "$JAVA_HOME/bin/javac" -encoding UTF-8 -d "$out/scenario" -cp "$(java_classpath "$target")" $(scenario_sources "$target") ;;
    go)
      # The generated package at GOPATH/src/sighting (its go.mod dropped: GOPATH mode), the scenario as a command.
      mkdir -p "$out/gopath/src/scenario"
      mv "$out/sdk" "$out/gopath/src/sighting"
      rm -f "$out/gopath/src/sighting/go.mod" "$out/gopath/src/sighting/go.sum"
      cp "$CLIENTS_DIR/go/scenario.go" "$out/gopath/src/scenario/main.go"
      (cd "$out/gopath/src/scenario" && env $(go_env) go build -o "$out/scenario" .) ;;
    kotlin)
      mkdir -p "$out/scenario"
      cp "$CLIENTS_DIR/kotlin/pom.xml" "$out/pom.xml"
      cp "$CLIENTS_DIR/kotlin/Scenario.kt" "$out/scenario/"
      (cd "$out" && maven -q compile \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile="$out/classpath.txt") ;;
  esac
}

hold_build_lock
fetch_generator
for target in "${targets[@]}"; do
  out="$BUILD_DIR/$target"
  hash=$(inputs_hash "$target")
  if [[ -f "$out/.built" && "$(cat "$out/.built")" == "$hash" ]]; then
    echo "clients: $target is up to date"
    continue
  fi
  echo "clients: generating and compiling $target"
  rm -rf "$out"
  mkdir -p "$out"
  generate "$target" "$out"
  compile "$target" "$out"
  echo "$hash" > "$out/.built"
done
