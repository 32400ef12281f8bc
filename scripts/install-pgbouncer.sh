#!/usr/bin/env bash
# Installs Debian's PgBouncer for the tests run through a transaction pooler (scripts/with-pgbouncer.sh); does nothing when it is there.
set -euo pipefail

if command -v pgbouncer >/dev/null || [[ -x /usr/sbin/pgbouncer ]]; then
  echo "PgBouncer already installed: $( (command -v pgbouncer || echo /usr/sbin/pgbouncer) )"
  exit 0
fi

# Root on CI and the dev machines; elsewhere fall back to sudo.
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
# Only the binary is used: the package's own service is left stopped (with-pgbouncer.sh runs one of its own).
$sudo apt-get install -y --no-install-recommends pgbouncer
echo "PgBouncer installed: $(/usr/sbin/pgbouncer --version | head -1)"
