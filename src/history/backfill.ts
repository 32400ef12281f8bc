// Gives every record that has no history yet (made before the history existed, or seeded) its `created` entry.
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { viewQuery } from '../crud/view-rows.ts';
import type { AnyResource } from '../crud/resource-descriptor.ts';
import { feedFilters } from '../crud/write/record-history.ts';
import { placeCommitted } from '../feed/sequencer.ts';

/** Records per statement: each statement stays well inside DB_STATEMENT_TIMEOUT_MS, whatever the table's size. */
const batch = 5000;

/**
 * INSERT … SELECT in id order, a window of ids at a time, run where the schema changes (src/db/migrate.ts, under its
 * lock): after migrations were applied or demo data seeded, never on an ordinary start.
 */
export async function backfillHistory(em: EntityManager, resources: readonly AnyResource[]): Promise<void> {
  const sql = em as SqlEntityManager;
  for (const resource of resources) {
    const meta = em.getMetadata().get(resource.entity);
    // A collection whose migration is yet to be generated (npm run migration:create) has no table, nor records.
    const table = await sql.execute('select to_regclass(?) as "table"', [`"${meta.tableName}"`], 'get') as
      { table: unknown };
    if (!table.table) continue;
    const column = (property: string) =>
      (meta.properties as Record<string, { fieldNames: string[] }>)[property]!.fieldNames[0]!;
    const id = column(resource.idProperty);
    const scope = feedFilters(resource)
      .map(([name, property]) => `'${name}', jsonb_build_array("t"."${column(property)}")`).join(', ');
    const view = viewQuery(em, resource, {});
    const windowEnd = `select max("${id}") as "last" ` +
      `from (select "${id}" from "${meta.tableName}" where "${id}" > ? order by "${id}" limit ${batch}) as "w"`;
    for (let after: unknown = -Number.MAX_SAFE_INTEGER; ;) {
      const { last } = await sql.execute(windowEnd, [after], 'get') as { last: unknown };
      if (last === null) break;
      await sql.execute(`insert into "record_change"
          ("collection", "record_id", "version", "change", "changed_at", "changed_by", "scope", "row")
        select ?, "v"."${id}", "v"."version", 'created', clock_timestamp(), null, jsonb_build_object(${scope}),
          to_jsonb("v")
        from (${view.getQuery()}) as "v" join "${meta.tableName}" as "t" on "t"."${id}" = "v"."${id}"
        where "v"."${id}" > ? and "v"."${id}" <= ?
        and not exists (select 1 from "record_change" as "c"
          where "c"."collection" = ? and "c"."record_id" = "v"."${id}")
        order by "v"."${id}"`, [resource.name, ...view.getParams(), after, last, resource.name]);
      after = last;
    }
  }
  // Placed now, before any feed starts from the newest place: a stream never gets them as new changes.
  await placeCommitted(em);
}
