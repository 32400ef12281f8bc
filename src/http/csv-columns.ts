// The CSV columns of a view, by the contract's row schema; an import reads the same names back
// (src/crud/write/csv-columns.ts, docs/api.md#csv).
import type { Schema } from '../contract/document.ts';
import { propertySchema } from '../contract/schemas.ts';
import { referencedNode } from '../contract/references.ts';

/** One column: its header name (`vessel.vesselName`, `vesselName.de`) and the field path it holds. */
export interface CsvColumn {
  name: string;
  path: readonly string[];
}

/** A map's keys by its field path (`vesselName`): each key is a column of its own. */
export type MapKeys = Readonly<Record<string, readonly string[]>>;

/** A column's header: the field path joined by dots. Field names and language keys hold no dot. */
export const columnName = (path: readonly string[]): string => path.join('.');

/** A column's field path from its header: what an import reads a CSV's header row with. */
export const columnPath = (name: string): string[] => name.split('.');

const isObject = (schema: Schema) => schema.type === 'object' || (Array.isArray(schema.type)
  && schema.type.includes('object'));

/** The field paths of the maps (objects with `additionalProperties`) under `schema`: their keys are asked for. */
export function mapPaths(schema: Schema, prefix: readonly string[] = []): string[] {
  const node = referencedNode(schema);
  if (!isObject(node)) return [];
  if (!node.properties) return typeof node.additionalProperties === 'object' ? [columnName(prefix)] : [];
  return Object.keys(node.properties).flatMap((name) => mapPaths(propertySchema(node, name)!, [...prefix, name]));
}

/**
 * The columns of rows of `schema`, in the order of its properties: a nested record's fields flattened, a map's keys
 * (`mapKeys`, in their order) one column each.
 */
export function csvColumns(schema: Schema, mapKeys: MapKeys, prefix: readonly string[] = []): CsvColumn[] {
  const node = referencedNode(schema);
  if (!isObject(node)) return [{ name: columnName(prefix), path: prefix }];
  if (!node.properties) {
    return (mapKeys[columnName(prefix)] ?? []).map((key) => ({ name: columnName([...prefix, key]),
      path: [...prefix, key] }));
  }
  return Object.keys(node.properties).flatMap((name) =>
    csvColumns(propertySchema(node, name)!, mapKeys, [...prefix, name]));
}

/** A record's cells for `columns`: null and absent (a language the record has no text in) are an empty cell. */
export function csvCells(record: unknown, columns: readonly CsvColumn[]): unknown[] {
  return columns.map(({ path }) => {
    let value = record;
    for (const key of path) {
      value = value !== null && typeof value === 'object' && Object.hasOwn(value, key)
        ? (value as Record<string, unknown>)[key] : undefined;
    }
    return value ?? null;
  });
}

/** A key such as `__proto__` is an ordinary key of the record, never its prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
