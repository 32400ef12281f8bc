// The least SQL that gives the benchmarked answers: a plain select of the sighting's own columns (the vessel's name and
// version come from a map the floor loads once), one INSERT … RETURNING for a create, one UPDATE for a PATCH. The
// service's own SQL (the vessel's join and names, a history entry per write) is what the ratio then shows the cost of.

const columns = `select "version", "sighting_id", "sighting_memo", "vessel_id", "sighting_timezone", "sighting_date" from "sighting"`;

/** Every vessel with its version and names, read once at start. */
export const vesselsSql = `select "v"."vessel_id", "v"."version", (select json_agg(json_build_array("n"."language_key", "n"."text") `
  + `order by "n"."translation_id") from "vessel_name" as "n" where "n"."vessel_id" = "v"."vessel_id") as "names" from "vessel" as "v"`;

export const readSql = `${columns} where "sighting_id" = $1`;

/** A merge patch of the memo alone (its `If-Match` not compared): one UPDATE … RETURNING the version (new only if the memo changed). */
export const patchMemoSql = `update "sighting" set "sighting_memo" = $1::varchar, `
  + `"version" = "version" + ("sighting_memo" is distinct from $1::varchar)::int where "sighting_id" = $2 returning "version"`;

/** A page of one record's history, newest first: $1 the id, $2 the page size. */
export const historySql = `select "version", "change", "row", to_char("changed_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "changed_at" `
  + `from "record_change" where "collection" = 'sighting' and "record_id" = $1 order by "event_id" desc limit $2`;

export const createSql = `insert into "sighting" ("sighting_memo", "vessel_id", "sighting_timezone", "sighting_date", "creator") `
  + `values ($1, $2, $3, $4, $5) returning "sighting_id", "version"`;

/** The whole list, read through a cursor (PostgreSQL). */
export const listSql = `${columns} order by "sighting_id" asc`;
/** One keyset batch of the whole list (PGlite): $1 the last id read, $2 the batch size. */
export const listBatchSql = `${columns} where "sighting_id" > $1 order by "sighting_id" asc limit $2`;

/** Query by example on the memo: $1 the `%…%` pattern. */
export const qbeSql = `${columns} where "sighting_memo" ilike $1 order by "sighting_id" asc`;
export const qbeBatchSql = `${columns} where "sighting_memo" ilike $1 and "sighting_id" > $2 order by "sighting_id" asc limit $3`;
