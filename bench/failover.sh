#!/usr/bin/env bash
# Failover, measured: etcd, two PostgreSQL nodes under Patroni (synchronous mode) and HAProxy (deploy/haproxy.cfg)
# checking Patroni's /primary; two service instances whose DATABASE_URL is HAProxy; writers and a change-feed
# subscriber (bench/failover-load.ts); then the leader's Patroni and postgres are killed (SIGKILL). Prints the error
# window, the acknowledged writes lost (exit 1 unless 0) and the feed's recovery. A measurement, not part of .ci/run.
# Everything listens on 127.0.0.1, in throwaway folders, and is stopped and removed whatever happens.
# Usage: bench/failover.sh   Settings: FAILOVER_PORT_BASE (25400: uses it to +49), FAILOVER_WRITERS (8).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for package in "/usr/bin/patroni patroni" "/usr/lib/python3/dist-packages/etcd python3-etcd" "/usr/bin/etcd etcd-server" "/usr/sbin/haproxy haproxy"; do
  # shellcheck disable=SC2086
  scripts/install-debian-package.sh $package >/dev/null
done
node_bin="$PWD/node_modules/.bin/node"
bin_dir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"

base="${FAILOVER_PORT_BASE:-25400}"
haproxy_postgres=$((base)) haproxy_service=$((base + 1))
etcd_client=$((base + 2)) etcd_peer=$((base + 3))
postgres_ports=($((base + 10)) $((base + 11))) rest_ports=($((base + 20)) $((base + 21)))
service_ports=($((base + 30)) $((base + 31))) health_ports=($((base + 40)) $((base + 41)))
for port in "$haproxy_postgres" "$haproxy_service" "$etcd_client" "$etcd_peer" "${postgres_ports[@]}" "${rest_ports[@]}" "${service_ports[@]}" "${health_ports[@]}"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "failover: port $port is taken" >&2; exit 1; fi
done

root="$(mktemp -d /tmp/sighting-failover.XXXXXX)"
pids=()
cleanup() {
  set +e
  # Children first (services, load), then HAProxy, Patroni (which stops its postgres), etcd; then anything left.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  # A postgres whose Patroni was killed is still running: stopped here, and waited for before its folder goes.
  for node in 1 2; do
    postmaster="$(head -1 "$root/node$node/data/postmaster.pid" 2>/dev/null)"
    [ -n "$postmaster" ] || continue
    kill -9 "$postmaster" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$postmaster" 2>/dev/null || break; sleep 0.1; done
  done
  wait 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 755 "$root"
log() { echo "failover: $*"; }

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local seconds="$1" what="$2"; shift 2
  for _ in $(seq 1 $((seconds * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "failover: $what did not happen within $seconds s; logs in $root:" >&2
  tail -n 30 "$root"/*.log "$root"/node*/patroni.log >&2 2>/dev/null
  return 1
}

log "etcd on 127.0.0.1:$etcd_client"
etcd --name failover --data-dir "$root/etcd" --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "failover=http://127.0.0.1:$etcd_peer" --listen-metrics-urls "" >"$root/etcd.log" 2>&1 &
pids+=($!)
wait_for 20 "etcd's start" curl -sf "http://127.0.0.1:$etcd_client/health"

# Two nodes; the leader's commits wait for the other's flush (synchronous_mode), so an acknowledged write survives the
# leader's death, and only that synchronous standby may be promoted. ttl 10 s: the leader key outlives a dead leader
# that long, which bounds the error window from below.
for node in 1 2; do
  dir="$root/node$node"
  mkdir -p "$dir"
  cat >"$dir/patroni.yml" <<YAML
scope: sighting-failover
name: node$node
restapi:
  listen: 127.0.0.1:${rest_ports[node - 1]}
  connect_address: 127.0.0.1:${rest_ports[node - 1]}
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    synchronous_mode: true
    postgresql:
      use_pg_rewind: false
      parameters:
        max_connections: 100
  initdb: [{encoding: UTF8}, {auth: trust}]
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${postgres_ports[node - 1]}
  connect_address: 127.0.0.1:${postgres_ports[node - 1]}
  data_dir: $dir/data
  bin_dir: $bin_dir
  pgpass: $dir/pgpass
  authentication:
    superuser: {username: postgres, password: failover}
    replication: {username: replicator, password: failover}
  parameters:
    unix_socket_directories: $dir
YAML
done
chown -R postgres:postgres "$root"
# PostgreSQL refuses to run as root: Patroni (and so its postgres) runs as postgres. setpriv executes it in place (runuser
# would stay its parent), so the pid recorded is Patroni's own, the one the kill must reach.
for node in 1 2; do
  HOME="$root" setpriv --reuid=postgres --regid=postgres --init-groups -- patroni "$root/node$node/patroni.yml" >"$root/node$node/patroni.log" 2>&1 &
  pids+=($!)
  echo "$!" >"$root/node$node/patroni.pid"
  # The first node bootstraps and leads; the second then copies it.
  if [ "$node" = 1 ]; then wait_for 60 "node1 leading" curl -sf "http://127.0.0.1:${rest_ports[0]}/primary"; fi
done
wait_for 90 "node2 streaming as the synchronous standby" sh -c "curl -sf http://127.0.0.1:${rest_ports[0]}/cluster | grep -q '\"sync_standby\"'"

log "HAProxy (deploy/haproxy.cfg): PostgreSQL's leader on 127.0.0.1:$haproxy_postgres, the instances on 127.0.0.1:$haproxy_service"
HAPROXY_POSTGRES_BIND="127.0.0.1:$haproxy_postgres" HAPROXY_SERVICE_BIND="127.0.0.1:$haproxy_service" \
  PATRONI_1_POSTGRES="127.0.0.1:${postgres_ports[0]}" PATRONI_1_REST_PORT="${rest_ports[0]}" \
  PATRONI_2_POSTGRES="127.0.0.1:${postgres_ports[1]}" PATRONI_2_REST_PORT="${rest_ports[1]}" \
  SIGHTING_1="127.0.0.1:${service_ports[0]}" SIGHTING_1_HEALTH_PORT="${health_ports[0]}" \
  SIGHTING_2="127.0.0.1:${service_ports[1]}" SIGHTING_2_HEALTH_PORT="${health_ports[1]}" \
  /usr/sbin/haproxy -db -f deploy/haproxy.cfg >"$root/haproxy.log" 2>&1 &
pids+=($!)
database="postgresql://postgres@127.0.0.1:$haproxy_postgres"
# HAProxy starts with every server up until its checks say otherwise: wait until it reaches the leader alone.
wait_for 20 "HAProxy routing to the leader only" sh -c "for i in 1 2 3 4; do \"$bin_dir/psql\" '$database/postgres' -Atc 'select pg_is_in_recovery()' | grep -qx f || exit 1; done"
"$bin_dir/psql" -q "$database/postgres" -c 'create database sighting'

# Both instances migrate at start (one waits for the other's lock); health on a port of its own, as HAProxy checks it.
for i in 0 1; do
  PORT="${service_ports[i]}" MANAGEMENT_PORT="${health_ports[i]}" HOST=127.0.0.1 DATABASE_URL="$database/sighting" \
    LOG_LEVEL=warn DEMO_DATA=true SHUTDOWN_DELAY_MS=0 "$node_bin" src/server.ts >"$root/service-$((i + 1)).log" 2>&1 &
  pids+=($!)
done
for i in 0 1; do wait_for 60 "instance $((i + 1)) ready" curl -sf "http://127.0.0.1:${health_ports[i]}/health/ready"; done
# An instance's own answer through HAProxy (401: no token), not HAProxy's 503.
wait_for 20 "HAProxy seeing a ready instance" sh -c "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$haproxy_service/api/sighting | grep -qx 401"

log "PostgreSQL $("$bin_dir/postgres" --version | cut -d' ' -f3), Patroni $(patroni --version | cut -d' ' -f2), etcd $(etcd --version | head -1 | cut -d' ' -f3), $(/usr/sbin/haproxy -v | head -1 | cut -d' ' -f1-3); node $("$node_bin" --version)"
nodes="[{\"name\":\"node1\",\"rest\":\"http://127.0.0.1:${rest_ports[0]}\",\"patroniPidFile\":\"$root/node1/patroni.pid\",\"dataDir\":\"$root/node1/data\"},{\"name\":\"node2\",\"rest\":\"http://127.0.0.1:${rest_ports[1]}\",\"patroniPidFile\":\"$root/node2/patroni.pid\",\"dataDir\":\"$root/node2/data\"}]"
FAILOVER_SERVICES="http://127.0.0.1:${service_ports[0]},http://127.0.0.1:${service_ports[1]}" \
  FAILOVER_BALANCER="http://127.0.0.1:$haproxy_service" FAILOVER_NODES="$nodes" FAILOVER_DATABASE_URL="$database/sighting" \
  "$node_bin" bench/failover-load.ts &
load=$!
pids+=("$load")
status=0
wait "$load" || status=$?
# Any 5xx but the documented 503 is a fault of the service's: its log lines say which.
if grep -h '"status":5' "$root"/service-*.log | grep -v '"status":503' >&2; then echo "failover: the instances answered 5xx other than 503 (above)" >&2; status=1; fi
exit "$status"
