#!/usr/bin/env bash
# Downloads Keycloak from Maven Central and unpacks it into .keycloak/, reusing an existing unpack.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [[ -x "$KC_HOME/bin/kc.sh" ]]; then
  echo "Keycloak $KEYCLOAK_VERSION already present in $KC_HOME"
  exit 0
fi

mkdir -p "$KC_BASE"
download_dir="$KC_BASE/download"
mkdir -p "$download_dir"
zip="$download_dir/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
if [[ ! -s "$zip" ]]; then
  echo "Downloading Keycloak $KEYCLOAK_VERSION from Maven Central..."
  # Debian's bundled dependency plugin predates the flags we need, so pin a current one.
  # One Maven at a time on this machine (the SDK builds share ~/.m2; clients/env.sh takes the same lock).
  mkdir -p "$HOME/.m2"
  JAVA_HOME="$KC_JAVA_HOME" flock "$HOME/.m2/sighting-registry.lock" mvn -B -q -Dstyle.color=never \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    -DoutputDirectory="$download_dir"
fi

# Unpack next to the target and rename, so an interrupted unzip never looks like a finished install.
tmp="$KC_BASE/unpack.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
if command -v unzip >/dev/null; then
  unzip -q "$zip" -d "$tmp"
else
  (cd "$tmp" && "$KC_JAVA_HOME/bin/jar" xf "$zip")
fi
chmod +x "$tmp/keycloak-$KEYCLOAK_VERSION/bin/"*.sh
rm -rf "$KC_HOME"
mv "$tmp/keycloak-$KEYCLOAK_VERSION" "$KC_HOME"
rm -rf "$tmp"
# Maven's local repository keeps its own copy, so this one is just 140 MB of clutter.
rm -rf "$download_dir"
echo "Keycloak $KEYCLOAK_VERSION unpacked into $KC_HOME"
