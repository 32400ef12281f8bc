// The SQL the service runs for the benchmarked operations, written out once for the floor server to run verbatim.
// (Captured from the service with DB_DEBUG=true; the benchmark checks that both servers answer the same bytes.)

const columns = `select "r"."version", "r"."sighting_id", "r"."sighting_memo", "r"."vessel_id", "r"."sighting_timezone", "r"."sighting_date", `
  + `"v"."version" as "vessel_version", (select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id") `
  + `from "vessel_name" as "n" where "n"."vessel_id" = "r"."vessel_id") as "vessel_names" `
  + `from "sighting" as "r" inner join "vessel" as "v" on "r"."vessel_id" = "v"."vessel_id"`;

export const readSql = `${columns} where "r"."sighting_id" = $1`;

export const createSql = `insert into "sighting" ("sighting_memo", "vessel_id", "sighting_timezone", "sighting_date", "creator") `
  + `values ($1, $2, $3, $4, $5) returning "sighting_id", "version"`;

/** The whole list, read through a cursor (PostgreSQL). */
export const listSql = `${columns} order by "r"."sighting_id" asc`;
/** One keyset batch of the whole list (PGlite): $1 the last id read, $2 the batch size. */
export const listBatchSql = `${columns} where "r"."sighting_id" > $1 order by "r"."sighting_id" asc limit $2`;

/** Query by example on the memo: $1 the `%…%` pattern. */
export const qbeSql = `${columns} where "r"."sighting_memo" ilike $1 order by "r"."sighting_id" asc`;
export const qbeBatchSql = `${columns} where "r"."sighting_memo" ilike $1 and "r"."sighting_id" > $2 order by "r"."sighting_id" asc limit $3`;
