// The SQL the service runs for the benchmarked operations, written out once for the floor server to run verbatim.
// (Captured from the service with DB_DEBUG=true; the benchmark checks that both servers answer the same bytes.)

const columns = `select "s"."version", "s"."sighting_id", "s"."sighting_memo", "s"."vessel_id", "s"."sighting_timezone", "s"."sighting_date", `
  + `"v"."version" as "vessel_version", (select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id") `
  + `from "vessel_name" as "n" where "n"."vessel_id" = "s"."vessel_id") as "vessel_names" `
  + `from "sighting" as "s" inner join "vessel" as "v" on "s"."vessel_id" = "v"."vessel_id"`;

export const readSql = `${columns} where "s"."sighting_id" = $1 limit 1`;

export const createSql = `insert into "sighting" ("sighting_memo", "vessel_id", "sighting_timezone", "sighting_date", "creator") `
  + `values ($1, $2, $3, $4, $5) returning "sighting_id", "version"`;

/** The whole list, read through a cursor (PostgreSQL). */
export const listSql = `${columns} order by "s"."sighting_id" asc`;
/** One keyset batch of the whole list (PGlite): $1 the last id read, $2 the batch size. */
export const listBatchSql = `${columns} where "s"."sighting_id" > $1 order by "s"."sighting_id" asc limit $2`;

/** Query by example on the memo: $1 the `%…%` pattern. */
export const qbeSql = `${columns} where "s"."sighting_memo" ilike $1 order by "s"."sighting_id" asc`;
export const qbeBatchSql = `${columns} where "s"."sighting_memo" ilike $1 and "s"."sighting_id" > $2 order by "s"."sighting_id" asc limit $3`;
