#!/usr/bin/env bash
# What each way of writing an export's cells costs PostgreSQL alone: COPY of 1,000,000 rows (an id, a timestamp(3) and
# two texts) to /dev/null on the server, three times each, in a database of its own (dropped at the end). Prints each
# variant's times; compare them with the raw columns'. Needs a superuser (COPY to a server file), as the machine's is.
# Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test bench/export-cells.sh
set -euo pipefail
server="${DATABASE_URL:?set DATABASE_URL to a PostgreSQL server}"
name="export_cells_$$"
database="${server%/*}/$name"
psql "$server" -qc "create database $name"
trap 'psql "$server" -qc "drop database if exists $name"' EXIT
psql "$database" -q -c "create table t as select g as id, ('2026-01-01'::timestamp + g * interval '1.234 s')::timestamp(3)
  as d, 'Memo number ' || g as memo, 'Europe/Berlin' as tz from generate_series(1, 1000000) g" -c "vacuum analyze t"

run() {
  local times
  times=$(psql "$database" -q -c '\timing on' -c "copy ($1) to '/dev/null' (format csv)" \
    -c "copy ($1) to '/dev/null' (format csv)" -c "copy ($1) to '/dev/null' (format csv)" \
    | grep -o 'Time: [0-9.]*' | cut -d' ' -f2 | paste -sd' ')
  echo "$2: $times ms"
}
# The formula guard of src/crud/read/copied-export.ts, before (every text against the list) and now (most texts one
# comparison).
guard_list() { echo "case when ascii($1) in (0, 39, 61, 43, 45, 64, 9, 13) then case when $1 = '' then null \
when $1 ~ '^''*[=+@\\t\\r-]' then '''' || $1 else $1 end else $1 end"; }
guard() { echo "case when ascii($1) > 64 then $1 else $(guard_list "$1") end"; }

run "select id, d, memo, tz from t" "raw columns"
run "select id, to_char(d, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS'), memo, tz from t" "date by to_char"
run "select id, left(replace((d + interval '0.0001 s')::text, ' ', 'T'), 23), memo, tz from t" "date by its text"
# What an export writes where the date ends its records (src/resources/sighting-fields.ts); the service finishes it.
run "select id, memo, tz, d + interval '0.0001 s' from t" "date last, its own text a tenth of a millisecond on"
run "select id, d, $(guard_list memo), $(guard_list tz) from t" "texts guarded, every one against the list"
run "select id, d, $(guard memo), $(guard tz) from t" "texts guarded, most by one comparison"
