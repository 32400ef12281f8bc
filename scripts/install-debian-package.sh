#!/usr/bin/env bash
# Installs a Debian package the tests need unless its program is there: install-debian-package.sh PROGRAM PACKAGE.
# CI and the dev machines run as root; elsewhere it falls back to sudo. Two runs on one host take turns: apt holds
# one lock for the whole machine, and a second apt-get fails at once without the wait below.
set -euo pipefail
program="$1"
package="$2"

installed() {
  if [[ -x "$program" ]]; then
    echo "$package already installed: $program"
    return 0
  fi
  return 1
}
installed && exit 0

exec 9>"${TMPDIR:-/tmp}/sighting-registry-apt.lock"
flock --timeout 900 9
installed && exit 0  # the run we waited for installed it
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Other programs' apt runs (unattended upgrades) are waited for too.
$sudo apt-get -o DPkg::Lock::Timeout=600 update
$sudo apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$package"
echo "$package installed: $program"
