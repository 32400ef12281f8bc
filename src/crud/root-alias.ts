// The SQL alias of a collection's own table, written once: every view, stream and count query is rooted at it, and
// descriptors name the root's fields and columns through it.

/** The alias of the collection's own table in every query the CRUD machinery builds. */
export const rootAlias = 'r';

/** A field of the root as the QueryBuilder takes it: `rootField('vessel')` is `r.vessel`. */
export function rootField(name: string): string {
  return `${rootAlias}.${name}`;
}

/** Fields of the root as the QueryBuilder takes them: `rootFields('version', 'vesselId')`. */
export function rootFields(...names: string[]): string[] {
  return names.map(rootField);
}

/** A column of the root as raw SQL: `rootColumn('vessel_id')` is `"r"."vessel_id"`. */
export function rootColumn(column: string): string {
  return `"${rootAlias}"."${column}"`;
}
