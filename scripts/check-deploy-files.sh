#!/usr/bin/env bash
# Checks the deploy files without Docker: docker-compose (Debian's, installed here when missing) validates
# compose.yaml, HAProxy (Debian's, likewise) deploy/haproxy.cfg, and bash parses the container scripts. The Dockerfile is checked by test/ops/deploy-files.test.ts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-debian-package.sh /usr/bin/docker-compose docker-compose >/dev/null

# `config` resolves and validates the file against the Compose schema; it needs no Docker daemon.
docker-compose --file compose.yaml config --quiet
for script in deploy/postgres/*.sh; do bash -n "$script"; done
# Its defaults name hosts that resolve only where it is deployed: those servers start disabled, with a warning each.
scripts/install-debian-package.sh /usr/sbin/haproxy haproxy >/dev/null
/usr/sbin/haproxy -c -q -f deploy/haproxy.cfg
echo "compose.yaml, deploy/haproxy.cfg and deploy/ scripts are valid ($(docker-compose version --short); $(/usr/sbin/haproxy -v | head -1 | cut -d' ' -f1-3))"
