// A one-row record's columns from its descriptor's `values`, ready for a statement.
import { ReferenceKind, type EntityManager } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';

export interface RowValues {
  /** Column names, in the entity's property order: the same properties set give the same statement. */
  columns: string[];
  values: unknown[];
}

/**
 * The columns of every property `data` sets (a relation by its key, a custom type as the database stores it),
 * leaving out the id and the version, which the database keeps. Read from MikroORM's metadata, so the entity
 * definition stays the one place that names them.
 */
export function rowValues(em: EntityManager, resource: AnyResource, data: object): RowValues {
  const meta = em.getMetadata().get(resource.entity);
  const platform = em.getPlatform();
  const row: RowValues = { columns: [], values: [] };
  for (const prop of meta.props) {
    if (prop.primary || prop.version || prop.persist === false || prop.formula) continue;
    if (prop.kind !== ReferenceKind.SCALAR && prop.kind !== ReferenceKind.MANY_TO_ONE) continue;
    const value = (data as Record<string, unknown>)[prop.name];
    if (value === undefined) continue;
    row.columns.push(prop.fieldNames[0]!);
    if (prop.kind === ReferenceKind.MANY_TO_ONE) {
      // The key itself, or a record that holds it.
      row.values.push(value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[prop.targetMeta!.primaryKeys[0]!] : value);
    } else {
      row.values.push(prop.customType ? prop.customType.convertToDatabaseValue(value, platform, { mode: 'query-data' })
        : value);
    }
  }
  return row;
}
