#!/usr/bin/env bash
# Checks that the service runs from a production install, as the Dockerfile builds it: only the files the
# Dockerfile copies, `npm ci --omit=dev` (no `node` package, no pino-pretty), NODE_ENV=production; on Node 24
# (this project's own, standing in for the image's node:24). Starts it on PGlite, asks /health/ready and /metrics.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node24="$PWD/node_modules/.bin/node"
# Free at run time unless set: two runs on one host must not collide on a fixed port.
port="${CHECK_PORT:-$(scripts/free-port.sh)}"

dir="$(mktemp -d /tmp/sighting-production.XXXXXX)"
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT

# The sources of the Dockerfile's COPY lines that copy from the build context (not --from another stage).
# The dependencies and runtime stages' (not the web stage's: it builds the page, which the runtime copies as
# web/dist, built here by npm ci / npm run build:web).
sources=$(awk '/^FROM / { web = / AS web$/ } !web && /^COPY / && $2 !~ /^--/ { for (i = 2; i < NF; i++) print $i }' Dockerfile | sort -u)
# --parents: a file COPY names below a folder (docs/changelog.md) lands in that folder, as in the image.
cp -r --parents $sources "$dir/"
mkdir -p "$dir/web" && cp -r web/dist "$dir/web/dist"
(cd "$dir" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
for dev in node pino-pretty mocha; do
  if [ -e "$dir/node_modules/$dev" ]; then echo "check-production-install: devDependency $dev was installed" >&2; exit 1; fi
done

# The token check only needs Keycloak when a token arrives; a closed port stands in for it. Production refuses the
# embedded database unless asked for it (EMBEDDED_DATABASE): this check has no PostgreSQL of its own.
(cd "$dir" && NODE_ENV=production EMBEDDED_DATABASE=true PORT="$port" HOST=127.0.0.1 KEYCLOAK_URL=http://127.0.0.1:9 \
  LOG_LEVEL=warn exec "$node24" src/server.ts) &
pid=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/health/ready" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { echo "check-production-install: the service exited" >&2; exit 1; }
  sleep 1
done
curl -sf "http://127.0.0.1:$port/health/ready"; echo
# Read whole before it is searched: `grep -q` stops at the first match, and a curl still writing fails (23), which
# pipefail would make this check's failure.
metrics=$(curl -sf "http://127.0.0.1:$port/metrics")
grep -q '^http_requests_in_flight ' <<<"$metrics"
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/vessel")
[ "$status" = 401 ] || { echo "check-production-install: /api/vessel without a token answered $status" >&2; exit 1; }
echo "production install runs: health, metrics and the API answer without devDependencies"
