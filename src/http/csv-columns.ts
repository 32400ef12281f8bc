// The CSV columns of a view, by the contract's row schema; an import reads the same names back
// (src/crud/write/csv-columns.ts, docs/api.md#csv).
import type { Reference, Schema } from '../contract/document.ts';
import { propertySchema } from '../contract/schemas.ts';
import { referencedNode } from '../contract/references.ts';

/**
 * One column: its header name (`vessel.vesselName`, `vesselName.de`), the field path it holds, and whether it holds
 * text (`isText`), whose cells are kept from opening as formulas.
 */
export interface CsvColumn {
  name: string;
  path: readonly string[];
  text: boolean;
}

/** Formats of strings that are no free text: dates, whose cells never start with a formula's character. */
const dateFormats = new Set(['date', 'date-time', 'local-date-time', 'time']);

/**
 * A text field of the contract: string-typed, not a date. The export guards its cells and the import reads them back
 * by this same rule, from the row schema and the create body's schema, so a value crosses both unchanged.
 */
export function isText(schema: Schema | Reference | undefined): boolean {
  const node = schema && referencedNode<Schema>(schema);
  if (!node) return false;
  const typed = node.type === 'string' || Array.isArray(node.type) && node.type.includes('string');
  return typed && !(typeof node.format === 'string' && dateFormats.has(node.format));
}

/**
 * OWASP's CSV injection: a spreadsheet opens a cell starting with `=`, `+`, `-`, `@`, tab or CR as a formula. An
 * export writes such a text with one `'` before it, which a spreadsheet shows as text; a text that already starts with
 * `'`s before one of them gets one `'` more, so an import (src/crud/write/csv-columns.ts) takes exactly one off any
 * text matching `formulaGuarded` and every text comes back as it was exported.
 */
export const formulaStart = /^'*[=+\-@\t\r]/;
export const formulaGuarded = /^'+[=+\-@\t\r]/;

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
  if (!isObject(node)) return [{ name: columnName(prefix), path: prefix, text: isText(node) }];
  if (!node.properties) {
    const text = typeof node.additionalProperties === 'object' && isText(node.additionalProperties);
    return (mapKeys[columnName(prefix)] ?? []).map((key) => ({ name: columnName([...prefix, key]),
      path: [...prefix, key], text }));
  }
  return Object.keys(node.properties).flatMap((name) =>
    csvColumns(propertySchema(node, name)!, mapKeys, [...prefix, name]));
}

/** A record's value at `path`: null and absent (a language the record has no text in) are null. */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const key of path) {
    value = value !== null && typeof value === 'object' && Object.hasOwn(value, key)
      ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value ?? null;
}

/**
 * A key such as `__proto__` is an ordinary key of the record, never its prototype. Only that one name is an accessor
 * on Object.prototype: any other is assigned, not defined, since an import sets every cell of every row this way three
 * times (defining them was ~2 s of a 16 MB CSV import's CPU profile, docs/benchmarks.md).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') target[key] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
