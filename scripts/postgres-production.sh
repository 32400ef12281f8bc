#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL set up as production runs it: scram-sha-256 passwords, TLS required
# (a CA and a server certificate for 127.0.0.1 and localhost, made here), a migrator role that owns the schema and an
# app role that may only read and write rows. Made on a free port in a temporary folder, removed afterwards whatever
# happens; the machine's clusters are not touched.
# Usage: scripts/postgres-production.sh npx mocha --grep @pgbouncer 'test/**/*.test.ts'
# Exports to the command:
#   DATABASE_URL            the app role, sslmode=verify-full with the CA; its password only in PGPASSWORD
#   DATABASE_MIGRATION_URL  the migrator role (owner of the schema), its password in the URL
#   PGPASSWORD              the app role's password (pg 8.23 warns that its password-file support is deprecated)
#   PGBOUNCER_AUTH_FILE, PGBOUNCER_TLS_CA, PGBOUNCER_TLS_CERT, PGBOUNCER_TLS_KEY: for scripts/with-pgbouncer.sh
# Database `sighting` is the migrator's; the migrator may create databases (tests make scratch ones) and end sessions
# in them (pg_signal_backend, to drop them): neither is a superuser's right. Settings: PG_PRODUCTION_VERSION (newest).
set -euo pipefail

version="${PG_PRODUCTION_VERSION:-$(ls /usr/lib/postgresql | sort -n | tail -1)}"
bin="/usr/lib/postgresql/$version/bin"
port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"

root="$(mktemp -d /tmp/sighting-production.XXXXXX)"
cleanup() {
  set +e
  [ -f "$root/data/postmaster.pid" ] && runuser -u postgres -- "$bin/pg_ctl" -D "$root/data" stop -m immediate >/dev/null 2>&1
  rm -rf "$root"
}
trap cleanup EXIT
chmod 755 "$root"
as_postgres() { runuser -u postgres -- "$@"; }

# Passwords of this run only, with what a URL must not hold unescaped (`@ / : # ?`), as operators' passwords may: the
# app role's travels in PGPASSWORD, the owner's percent-encoded in its URL.
secret() { echo "p@ss/w:rd#?$(openssl rand -hex 12)"; }
url_encoded() { node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$1"; }
owner_password="$(secret)"
app_password="$(secret)"

# The certificates: a CA of this run, and a server certificate it signs for both names a client may use.
tls="$root/tls"
mkdir -p "$tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sighting test CA" \
  -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
printf 'subjectAltName = IP:127.0.0.1, DNS:localhost\n' > "$tls/server.ext"
openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
  -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
chmod 644 "$tls/ca.crt" "$tls/server.crt"
chmod 600 "$tls/server.key"
chown -R postgres:postgres "$tls"
chmod 755 "$tls"

mkdir -p "$root/run" "$root/data"
chown postgres:postgres "$root/run" "$root/data"
as_postgres "$bin/initdb" -D "$root/data" -U postgres --auth-local=peer --auth-host=scram-sha-256 >/dev/null
# TLS or nothing over TCP: no `host` line, so a client without TLS finds no entry. The superuser only over the
# private socket (this script's set-up); the tests never use it.
cat > "$root/data/pg_hba.conf" <<HBA
local all postgres peer
hostssl all all 127.0.0.1/32 scram-sha-256
HBA
cat >> "$root/data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$root/run'
ssl = on
ssl_cert_file = '$tls/server.crt'
ssl_key_file = '$tls/server.key'
password_encryption = 'scram-sha-256'
max_connections = 200
fsync = off
full_page_writes = off
shared_buffers = 32MB
CONF
as_postgres "$bin/pg_ctl" -D "$root/data" -l "$root/run/postgres.log" -w start >/dev/null

psql_super() { as_postgres "$bin/psql" -h "$root/run" -p "$port" -U postgres -v ON_ERROR_STOP=1 -q "$@"; }
psql_super -d postgres <<SQL
create role sighting_owner login createdb password '$owner_password';
create role sighting_app login password '$app_password';
grant pg_signal_backend to sighting_owner;
create database sighting owner sighting_owner;
SQL
# The grants docs/postgresql-operations.md gives, made as the migrator (the owner of the database and its schema).
export PGPASSWORD="$owner_password"
"$bin/psql" "postgresql://sighting_owner@127.0.0.1:$port/sighting?sslmode=verify-full&sslrootcert=$tls/ca.crt" \
  -v ON_ERROR_STOP=1 -q <<SQL
revoke create on schema public from public;
grant usage on schema public to sighting_app;
alter default privileges in schema public grant select, insert, update, delete on tables to sighting_app;
alter default privileges in schema public grant usage, select on sequences to sighting_app;
SQL
unset PGPASSWORD

tls_query="sslmode=verify-full&sslrootcert=$tls/ca.crt"
printf '"sighting_owner" "%s"\n"sighting_app" "%s"\n' "$owner_password" "$app_password" > "$root/pgbouncer-users.txt"
export PGPASSWORD="$app_password"
export DATABASE_URL="postgresql://sighting_app@127.0.0.1:$port/sighting?$tls_query"
export DATABASE_MIGRATION_URL="postgresql://sighting_owner:$(url_encoded "$owner_password")@127.0.0.1:$port/sighting?$tls_query"
export PGBOUNCER_AUTH_FILE="$root/pgbouncer-users.txt"
export PGBOUNCER_TLS_CA="$tls/ca.crt" PGBOUNCER_TLS_CERT="$tls/server.crt" PGBOUNCER_TLS_KEY="$tls/server.key"
echo "postgres-production: PostgreSQL $version on 127.0.0.1:$port, scram-sha-256 over TLS only," \
  "roles sighting_owner (migrator) and sighting_app ($root)"
"$@"
