#!/usr/bin/env bash
# Runs a command with a PgBouncer of its own in transaction pooling mode in front of the PostgreSQL server DATABASE_URL
# names (every database on it, `*`); stopped and removed afterwards whatever happens. Installs Debian's PgBouncer first.
# Usage: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test scripts/with-pgbouncer.sh npx mocha --grep @pgbouncer 'test/**/*.test.ts'
# Exports to the command DATABASE_URL (the same user and database through PgBouncer) and DATABASE_DIRECT_URL (the
# server, as given) and PGBOUNCER_PORT. Settings: PGBOUNCER_PORT (a free one; 6432 is PgBouncer's usual). Trust
# (auth_type trust), unless PGBOUNCER_AUTH_FILE names a userlist of "user" "password" lines: then scram-sha-256, with
# those passwords to the server too; PGBOUNCER_TLS_CA, PGBOUNCER_TLS_CERT and PGBOUNCER_TLS_KEY make it verify the
# server's certificate and ask TLS of its clients (scripts/postgres-production.sh sets all four).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL server (e.g. postgresql://postgres@127.0.0.1:5432/test)}"
scripts/install-pgbouncer.sh >/dev/null
# Free at run time unless set: two runs on one host must not collide on a fixed port.
export PGBOUNCER_PORT="${PGBOUNCER_PORT:-$(scripts/free-port.sh)}"
port="$PGBOUNCER_PORT"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "with-pgbouncer: port $port is taken" >&2; exit 1; fi

# The server's address and user, read from the URL by node (it parses URLs as the service does).
read -r host server_port user < <(node -e 'const u = new URL(process.argv[1]); console.log(u.hostname, u.port || 5432, decodeURIComponent(u.username) || "postgres")' "$DATABASE_URL")

root="$(mktemp -d /tmp/sighting-pgbouncer.XXXXXX)"
pid=""
cleanup() {
  set +e
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$root"
}
trap cleanup EXIT
chmod 755 "$root"

# Transaction pooling, as fleets run it: a server connection belongs to a client for one transaction only, and no
# reset query runs between clients (server_reset_query is not used in this mode), so any session state the service
# left behind would reach the next client. Trust, as the test server has; the user must still be listed.
echo "\"$user\" \"\"" > "$root/userlist.txt"
auth="auth_type = trust"
if [ -n "${PGBOUNCER_AUTH_FILE:-}" ]; then
  cp "$PGBOUNCER_AUTH_FILE" "$root/userlist.txt"
  auth="auth_type = scram-sha-256"
fi
tls=""
if [ -n "${PGBOUNCER_TLS_CA:-}" ]; then
  cp "$PGBOUNCER_TLS_CA" "$root/ca.crt"; cp "$PGBOUNCER_TLS_CERT" "$root/tls.crt"; cp "$PGBOUNCER_TLS_KEY" "$root/tls.key"
  chmod 600 "$root/tls.key"
  tls="server_tls_sslmode = verify-full
server_tls_ca_file = $root/ca.crt
client_tls_sslmode = require
client_tls_cert_file = $root/tls.crt
client_tls_key_file = $root/tls.key"
fi
cat > "$root/pgbouncer.ini" <<INI
[databases]
* = host=$host port=$server_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
$auth
$tls
auth_file = $root/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
max_db_connections = 20
server_idle_timeout = 10
logfile = $root/pgbouncer.log
pidfile = $root/pgbouncer.pid
admin_users = $user
stats_users = $user
INI
chown -R postgres:postgres "$root"
# PgBouncer refuses to run as root.
runuser -u postgres -- /usr/sbin/pgbouncer "$root/pgbouncer.ini" >"$root/output.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "with-pgbouncer: PgBouncer did not start" >&2; cat "$root/pgbouncer.log" >&2; exit 1; fi
  sleep 0.1
done

export DATABASE_DIRECT_URL="$DATABASE_URL"
DATABASE_URL="$(node -e 'const u = new URL(process.argv[1]); u.hostname = "127.0.0.1"; u.port = process.argv[2]; console.log(u.toString())' "$DATABASE_URL" "$port")"
export DATABASE_URL
echo "with-pgbouncer: PgBouncer $(/usr/sbin/pgbouncer --version | head -1 | cut -d' ' -f2) in transaction mode on 127.0.0.1:$port in front of $host:$server_port ($root)"
"$@"
