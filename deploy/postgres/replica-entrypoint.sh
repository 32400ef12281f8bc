#!/usr/bin/env bash
# The replica's start: on first start, copy the primary with pg_basebackup (-R: start as a streaming standby).
set -euo pipefail
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  export PGPASSWORD="$REPLICATION_PASSWORD"
  until pg_basebackup -h "$PRIMARY_HOST" -U replicator -D "$PGDATA" -R -X stream -c fast; do
    echo "waiting for the primary at $PRIMARY_HOST"
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
  chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on
