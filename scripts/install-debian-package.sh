#!/usr/bin/env bash
# Installs a Debian package the tests need unless its program is there: install-debian-package.sh PROGRAM PACKAGE.
# CI and the dev machines run as root; elsewhere it falls back to sudo.
set -euo pipefail
program="$1"
package="$2"

if [[ -x "$program" ]]; then
  echo "$package already installed: $program"
  exit 0
fi

sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends "$package"
echo "$package installed: $program"
