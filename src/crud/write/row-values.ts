// A one-row record's columns from its descriptor's `values`, ready for a statement.
import { ReferenceKind, type EntityManager, type EntityMetadata, type EntityProperty } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';

export interface RowValues {
  /** Column names, in the entity's property order: the same properties set give the same statement. */
  columns: string[];
  values: unknown[];
}

/** A property a write may set, as read from MikroORM's metadata once. */
interface WrittenProperty {
  name: string;
  column: string;
  /** A relation's target key: the value may be a record that holds it. */
  referenceKey: string | undefined;
  customType: EntityProperty['customType'] | undefined;
}

/**
 * Each entity's written properties, made on its first write: MikroORM's property objects differ in shape, and reading
 * them on every write made those reads megamorphic (7 % of a create's megamorphic loads, docs/benchmarks.md); these
 * all have one shape.
 */
const writtenProperties = new WeakMap<EntityMetadata, readonly WrittenProperty[]>();

function writtenPropertiesOf(meta: EntityMetadata): readonly WrittenProperty[] {
  let properties = writtenProperties.get(meta);
  if (properties) return properties;
  properties = meta.props
    .filter((prop) => !prop.primary && !prop.version && prop.persist !== false && !prop.formula
      && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE))
    .map((prop) => ({
      name: prop.name,
      column: prop.fieldNames[0]!,
      referenceKey: prop.kind === ReferenceKind.MANY_TO_ONE ? prop.targetMeta!.primaryKeys[0]! : undefined,
      customType: prop.customType,
    }));
  writtenProperties.set(meta, properties);
  return properties;
}

/**
 * The columns of every property `data` sets (a relation by its key, a custom type as the database stores it),
 * leaving out the id and the version, which the database keeps. Read from MikroORM's metadata, so the entity
 * definition stays the one place that names them.
 */
export function rowValues(em: EntityManager, resource: AnyResource, data: object): RowValues {
  const platform = em.getPlatform();
  const row: RowValues = { columns: [], values: [] };
  for (const { name, column, referenceKey, customType } of writtenPropertiesOf(em.getMetadata().get(resource.entity))) {
    const value = (data as Record<string, unknown>)[name];
    if (value === undefined) continue;
    row.columns.push(column);
    if (referenceKey !== undefined) {
      // The key itself, or a record that holds it.
      row.values.push(value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[referenceKey]
        : value);
    } else {
      row.values.push(customType ? customType.convertToDatabaseValue(value, platform, { mode: 'query-data' }) : value);
    }
  }
  return row;
}
