#!/usr/bin/env bash
# Runs a command with a PostgreSQL primary and a streaming replica of its own: two new clusters made with Debian's
# tools on their own ports and data folders, removed afterwards whatever happens. The machine's clusters are not touched.
# Usage: scripts/postgres-replica.sh npx mocha test/replica/*.test.ts
# Exports REPLICATION_PRIMARY_URL, REPLICATION_REPLICA_URL (server URLs, database `postgres`) and
# REPLICATION_REPLICA_CLUSTER ("<version> <name>", for pg_ctlcluster) to the command.
# Settings: PG_REPLICA_VERSION (newest installed), PG_PRIMARY_PORT, PG_REPLICA_PORT (free ones, chosen at run time so
# that two runs on one host never collide).
set -euo pipefail

version="${PG_REPLICA_VERSION:-$(ls /usr/lib/postgresql | sort -n | tail -1)}"
bin="/usr/lib/postgresql/$version/bin"
read -r primary_port replica_port < <("$(dirname "${BASH_SOURCE[0]}")/free-port.sh" 2 | paste -sd" ")
primary_port="${PG_PRIMARY_PORT:-$primary_port}"
replica_port="${PG_REPLICA_PORT:-$replica_port}"
for port in "$primary_port" "$replica_port"; do
  if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then echo "postgres-replica: port $port is taken" >&2; exit 1; fi
done

# Everything lives in one temporary folder: data, sockets, logs, and the clusters' configuration
# (PG_CLUSTER_CONF_ROOT keeps Debian's tools away from /etc/postgresql).
root="$(mktemp -d /tmp/sighting-replica.XXXXXX)"
export PG_CLUSTER_CONF_ROOT="$root/etc"
cleanup() {
  set +e
  for cluster in replica primary; do
    [ -d "$PG_CLUSTER_CONF_ROOT/$version/$cluster" ] && pg_dropcluster --stop "$version" "$cluster" >/dev/null 2>&1
  done
  # A cluster pg_dropcluster could not stop (half made) still has a postmaster: stop it by its data folder.
  for data in "$root/primary" "$root/replica"; do
    [ -f "$data/postmaster.pid" ] && runuser -u postgres -- "$bin/pg_ctl" -D "$data" stop -m immediate >/dev/null 2>&1
  done
  rm -rf "$root"
}
trap cleanup EXIT
chmod 755 "$root"
mkdir -p "$PG_CLUSTER_CONF_ROOT" "$root/run"
chown postgres:postgres "$root/run"

as_postgres() { runuser -u postgres -- "$@"; }
# Trust on loopback and the private socket only: throwaway clusters, reachable from this machine alone.
hba="local all all trust
host all all 127.0.0.1/32 trust
host replication all 127.0.0.1/32 trust"

create() { # name port
  pg_createcluster "$version" "$1" -p "$2" -d "$root/$1" -s "$root/run" -l "$root/$1.log" --start-conf manual >/dev/null
  local conf="$PG_CLUSTER_CONF_ROOT/$version/$1"
  echo "$hba" > "$conf/pg_hba.conf"
  # No pid file in the shared /var/run/postgresql, where pg_ctlcluster writes one when the setting is unset (Debian's
  # tools read the first setting: replace it in place, whether Debian's template has it set or commented out).
  sed -i "s|^#\?external_pid_file = .*|external_pid_file = '$root/run/$1.pid'|" "$conf/postgresql.conf"
  grep -q "^external_pid_file = '$root/run/$1.pid'" "$conf/postgresql.conf" || { echo "postgres-replica: cannot set external_pid_file" >&2; exit 1; }
  # Loopback only; throwaway test clusters need no crash safety.
  cat >> "$conf/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
fsync = off
full_page_writes = off
shared_buffers = 32MB
CONF
}

echo "postgres-replica: primary on 127.0.0.1:$primary_port, replica on 127.0.0.1:$replica_port ($root)"
create primary "$primary_port"
pg_ctlcluster --skip-systemctl-redirect "$version" primary start

# The replica: a cluster of Debian's shape whose data folder is replaced by a base backup of the primary;
# -R writes standby.signal and primary_conninfo, so it starts as a streaming replica (hot standby).
create replica "$replica_port"
as_postgres find "$root/replica" -mindepth 1 -delete
as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$root/replica" -R -X stream -c fast
pg_ctlcluster --skip-systemctl-redirect "$version" replica start

in_recovery="$("$bin/psql" -h 127.0.0.1 -p "$replica_port" -U postgres -Atc 'select pg_is_in_recovery()')"
streaming="$("$bin/psql" -h 127.0.0.1 -p "$primary_port" -U postgres -Atc "select count(*) from pg_stat_replication where state = 'streaming'")"
if [ "$in_recovery" != t ] || [ "$streaming" != 1 ]; then
  echo "postgres-replica: the replica is not streaming (in recovery: $in_recovery, streaming: $streaming)" >&2
  cat "$root/replica.log" >&2
  exit 1
fi

export REPLICATION_PRIMARY_URL="postgresql://postgres@127.0.0.1:$primary_port/postgres"
export REPLICATION_REPLICA_URL="postgresql://postgres@127.0.0.1:$replica_port/postgres"
export REPLICATION_REPLICA_CLUSTER="$version replica"
"$@"
