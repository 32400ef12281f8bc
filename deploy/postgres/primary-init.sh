#!/usr/bin/env bash
# Runs once, when the primary's data folder is made: a replication role and its pg_hba.conf line.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v password="$REPLICATION_PASSWORD" <<'SQL'
create role replicator with replication login password :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
