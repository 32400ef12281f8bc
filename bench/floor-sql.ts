// The least SQL that gives the benchmarked answers: a plain select of the sighting's own columns (the vessel's name and
// version come from a map the floor loads once); for a write, one statement with the same guarantees as the service's:
// the row and its history entry (the record's detail view row, its feed scope before and after), the version checked
// in the UPDATE's WHERE clause and raised only when a value changes; the server NOTIFYs after the commit, as the
// service does. The service's own SQL (the vessel's join and names on reads) is what the ratio then shows the cost of.
// The design floor reads and writes with the service's statements instead (`designReads`, `designWrites` below).

const columns = `select "version", "sighting_id", "sighting_memo", "vessel_id", "sighting_timezone", "sighting_date" `
  + `from "sighting"`;

/** Every vessel with its version and names, read once at start. */
export const vesselsSql = `select "v"."vessel_id", "v"."version", `
  + `(select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id") `
  + `from "vessel_name" as "n" where "n"."vessel_id" = "v"."vessel_id") as "names" from "vessel" as "v"`;

export const readSql = `${columns} where "sighting_id" = $1`;

const entryColumns = `"collection", "record_id", "version", "change", "changed_at", "changed_by", "scope", "row"`;

/**
 * The entry's record: the detail view row of the written row `s`, its vessel's version and names as the service's view
 * reads them.
 */
const entryRow = `(select to_jsonb("v") from (select "s"."version", "s"."sighting_id", "s"."sighting_memo", `
  + `"s"."vessel_id", "s"."sighting_timezone", "s"."sighting_date", "vv"."version" as "vessel_version", `
  + `(select json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id")::text `
  + `from "vessel_name" as "n" where "n"."vessel_id" = "s"."vessel_id") as "vessel_names" `
  + `from "vessel" as "vv" where "vv"."vessel_id" = "s"."vessel_id") as "v")`;

/** An update's entry, where the version rose: $author the entry's author, $stated the version stated. */
const updatedEntry = (author: string, stated: string, scope: string) =>
  `"e" as (insert into "record_change" (${entryColumns}) `
  + `select 'sighting', "s"."sighting_id", "s"."version", 'updated', clock_timestamp(), ${author}, ${scope}, `
  + `${entryRow} from "s" where "s"."version" <> ${stated})`;

/**
 * A merge patch of the memo alone where the version is $3 (If-Match), with its entry: RETURNING the version (new only
 * if the memo changed).
 */
export const patchMemoSql = `with "s" as (update "sighting" set "sighting_memo" = $1::varchar, `
  + `"version" = "version" + ("sighting_memo" is distinct from $1::varchar)::int `
  + `where "sighting_id" = $2 and "version" = $3 returning *), `
  + `${updatedEntry('$4', '$3', `jsonb_build_object('vesselId', jsonb_build_array("s"."vessel_id"))`)} `
  + `select "version" from "s"`;

/**
 * A replacement where the version is $6, with its entry (the vessel before and after as its scope): RETURNING the
 * version.
 */
export const putSql = `with "s" as (update "sighting" as "t" `
  + `set "sighting_memo" = $1, "vessel_id" = $2, "sighting_timezone" = $3, "sighting_date" = $4, `
  + `"version" = "t"."version" + (("t"."sighting_memo", "t"."vessel_id", "t"."sighting_timezone", "t"."sighting_date") `
  + `is distinct from ($1::varchar, $2::bigint, $3::varchar, $4::timestamp))::int from "sighting" as "o" `
  + `where "t"."sighting_id" = $5 and "t"."version" = $6 and "o"."sighting_id" = "t"."sighting_id" `
  + `returning "t".*, "o"."vessel_id" as "old_vessel_id"), `
  + `${updatedEntry('$7', '$6', `jsonb_build_object('vesselId', case when "s"."old_vessel_id" = "s"."vessel_id" `
    + `then jsonb_build_array("s"."vessel_id") else jsonb_build_array("s"."old_vessel_id", "s"."vessel_id") end)`)} `
  + `select "version" from "s"`;

/** A page of one record's history, newest first: $1 the id, $2 the page size. */
export const historySql = `select "version", "change", "row", `
  + `to_char("changed_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "changed_at" `
  + `from "record_change" where "collection" = 'sighting' and "record_id" = $1 order by "event_id" desc limit $2`;

/** A create and its entry: `with s as (insert … returning *) insert into record_change … select … from s`. */
export const createSql = `with "s" as (insert into "sighting" `
  + `("sighting_memo", "vessel_id", "sighting_timezone", "sighting_date", "creator") `
  + `values ($1, $2, $3, $4, $5) returning *), `
  + `"e" as (insert into "record_change" (${entryColumns}) select 'sighting', "s"."sighting_id", "s"."version", `
  + `'created', clock_timestamp(), $6, jsonb_build_object('vesselId', jsonb_build_array("s"."vessel_id")), `
  + `${entryRow} from "s") select "sighting_id", "version" from "s"`;

/** A page of the list, one row more than asked (it tells whether there is a next): $1 the rows to read. */
export const listPageSql = `${columns} order by "sighting_id" asc limit $1`;
/** One keyset batch of the whole list: $1 the last id read, $2 the batch size (null: every row after it). */
export const listBatchSql = `${columns} where "sighting_id" > $1 order by "sighting_id" asc limit $2`;

/** Query by example on the memo: $1 the `%…%` pattern. */
export const qbeSql = `${columns} where "sighting_memo" ilike $1 order by "sighting_id" asc`;
export const qbeBatchSql =
  `${columns} where "sighting_memo" ilike $1 and "sighting_id" > $2 order by "sighting_id" asc limit $3`;

/** The vessel's name in English, picked in SQL as the service picks it for a request without Accept-Language. */
const englishName = `left join lateral (select "n"."text" as "vessel_name" from "vessel_name" as "n" `
  + `where "n"."vessel_id" = "r"."vessel_id" order by lower(replace("n"."language_key", '_', '-')) = 'en' desc, `
  + `split_part(lower(replace("n"."language_key", '_', '-')), '-', 1) = 'en' desc, `
  + `lower(replace("n"."language_key", '_', '-')) = 'en' desc, `
  + `split_part(lower(replace("n"."language_key", '_', '-')), '-', 1) = 'en' desc, "n"."translation_id" limit 1) `
  + `as "names" on true`;
const detailColumns = `select "r"."version", "r"."sighting_id", "r"."sighting_memo", "r"."vessel_id", `
  + `"r"."sighting_timezone", "r"."sighting_date", "v"."version" as "vessel_version"`;
const withVessel = `from "sighting" as "r" inner join "vessel" as "v" on "r"."vessel_id" = "v"."vessel_id"`;

/** The detail view with every name of the vessel as their JSON text, as a read by id and a history entry read it. */
const detailView = `${detailColumns}, "names"."vessel_names" ${withVessel} left join lateral (select `
  + `json_agg(json_build_array("n"."language_key", "n"."text") order by "n"."translation_id")::text `
  + `as "vessel_names" from "vessel_name" as "n" where "n"."vessel_id" = "r"."vessel_id") as "names" on true`;

/**
 * The design floor's reads: the service's own statements, as it sends them (the texts its QueryBuilder writes in
 * src/crud/view-rows.ts and src/crud/read/statement-shapes.ts; test/db/design-floor-statements.test.ts holds them
 * equal), so that the design floor is "the design's libraries with the same statements" and the ratio shows the
 * service's own code alone. A read by id has every name of the vessel, as their JSON text; a list or query picks the
 * English one.
 */
export const designReads = {
  read: `${detailView} where "r"."sighting_id" = $1`,
  listPage: `select "r"."sighting_id", "r"."vessel_id", "r"."sighting_timezone", "r"."sighting_date", `
    + `"names"."vessel_name" from "sighting" as "r" ${englishName} order by "r"."sighting_id" asc nulls last limit $1`,
  qbeBatch: `${detailColumns}, "names"."vessel_name" ${withVessel} ${englishName} `
    + `where "r"."sighting_memo" ilike $1 and "r"."sighting_id" > $2 `
    + `order by "r"."sighting_id" asc nulls last limit $3`,
};

/** The history entry of the written row, `w` (the WITH query named as the table, which the view reads in its place). */
const designEntry = (change: string, collection: string, author: string, scope: string, where = '') =>
  `"entry" as (insert into "record_change" (${entryColumns}) select ${collection}, "w"."sighting_id", "w"."version", `
  + `'${change}', clock_timestamp(), ${author}, ${scope}, to_jsonb("v") from (${detailView}) as "v", `
  + `"sighting" as "w"${where})`;
const writtenIdAndVersion = `select "sighting_id" as "id", "version" as "version" from "sighting"`;

/**
 * The design floor's writes: the service's own create and replacement of a sighting (src/crud/write/row-statements.ts),
 * copied as text like `designReads` and held equal by the same test. Create: $1–$4 the memo, vessel, time zone and
 * date, $5 the creator, $6 the collection, $7 the author. Replacement: $1–$4 the values, $5–$8 the same again (the
 * version rises only when one differs), $9 the id, $10 the version stated, $11 the collection, $12 the author, $13 the
 * version stated again (an entry only when it rose). Each answers the row's `id` and `version`.
 */
export const designWrites = {
  create: `with "sighting" as (insert into "sighting" ("sighting_memo", "vessel_id", "sighting_timezone", `
    + `"sighting_date", "creator") values ($1, $2, $3, $4, $5) returning *), `
    + `${designEntry('created', '$6', '$7', `jsonb_build_object('vesselId', jsonb_build_array("w"."vessel_id"))`)} `
    + `${writtenIdAndVersion}`,
  replace: `with "sighting" as (update "sighting" as "t" set "sighting_memo" = $1, "vessel_id" = $2, `
    + `"sighting_timezone" = $3, "sighting_date" = $4, "version" = "t"."version" + (("t"."sighting_memo", `
    + `"t"."vessel_id", "t"."sighting_timezone", "t"."sighting_date") is distinct from ($5, $6, $7, $8))::int `
    + `from "sighting" as "o" where "t"."sighting_id" = $9 and "t"."version" = $10 and "o"."sighting_id" = `
    + `"t"."sighting_id" returning "t".*, jsonb_build_object('vesselId', case when "o"."vessel_id" is not `
    + `distinct from "t"."vessel_id" then jsonb_build_array("o"."vessel_id") else jsonb_build_array("o"."vessel_id", `
    + `"t"."vessel_id") end) as "__scope"), `
    + `${designEntry('updated', '$11', '$12', '"w"."__scope"', ' where "w"."version" <> $13')} ${writtenIdAndVersion}`,
};
