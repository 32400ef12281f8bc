// A CSV row as the record it stands for: the export's column names (contract F) are field paths, `vessel.vesselId`,
// `vesselName.en`; this is where an import reads them, by the create body's schema.
import type { AnyResource, WireRecord } from '../resource-descriptor.ts';
import { openApiDocument, type Schema } from '../../contract/document.ts';
import { referencedNode } from '../../contract/references.ts';
import { schemaAt } from '../../contract/schemas.ts';
import { columnPath, formulaGuarded, isText, setOwn } from '../../http/csv-columns.ts';

const isWholeNumber = /^-?(0|[1-9]\d*)$/;

/**
 * A column's text as the value the schema at its path wants: a whole number as a number, an empty field as null, a
 * text the export guarded from opening as a formula (`'=1+2`) without its one `'` (src/http/csv-columns.ts).
 */
function valueOf(text: string, schema: Schema | undefined): unknown {
  if (text === '') return null;
  if (isText(schema)) return formulaGuarded.test(text) ? text.slice(1) : text;
  const numeric = schema?.type === 'integer' || schema?.type === 'number';
  return numeric && isWholeNumber.test(text) ? Number(text) : text;
}

function createSchema(resource: AnyResource): Schema | undefined {
  const schema = openApiDocument.paths[`/${resource.name}`]?.post?.requestBody?.content?.['application/json']?.schema;
  return schema && referencedNode(schema);
}

/** What a column's name says of where its text goes: found once per collection and column, not once per row. */
interface ColumnPlan { parentPath: string[]; key: string; inMap: boolean; schema: Schema | undefined }

const plans = new WeakMap<AnyResource, Map<string, ColumnPlan>>();
const mostPlannedColumns = 1000;

function planOf(resource: AnyResource, column: string): ColumnPlan {
  let byColumn = plans.get(resource);
  if (!byColumn) plans.set(resource, byColumn = new Map());
  let plan = byColumn.get(column);
  if (!plan) {
    const create = createSchema(resource);
    const path = columnPath(column);
    const parentPath = path.slice(0, -1);
    const parentSchema = parentPath.length > 0 ? schemaAt(create, parentPath) : create;
    const inMap = parentPath.length > 0 && parentSchema !== undefined && parentSchema.properties === undefined
      && typeof parentSchema.additionalProperties === 'object';
    plan = { parentPath, key: path.at(-1)!, inMap, schema: schemaAt(create, path) };
    // Column names come from clients: only so many are kept, the rest planned again for each row.
    if (byColumn.size < mostPlannedColumns) byColumn.set(column, plan);
  }
  return plan;
}

/**
 * The record of one row: each column's name split at `.` is the field's path (`vessel.vesselId` is `vessel:
 * {vesselId}`). An empty field is null, except in a map (a language map's `vesselName.de`): a language the record has
 * no text in is no key. A number the schema does not take as one stays text, for the schema to refuse as a create's.
 */
export function recordOfColumns(resource: AnyResource, row: Readonly<Record<string, string>>): WireRecord {
  const record: WireRecord = {};
  for (const [column, text] of Object.entries(row)) {
    const { parentPath, key, inMap, schema } = planOf(resource, column);
    if (inMap && text === '') continue;
    let target = record;
    for (const segment of parentPath) {
      const next = Object.hasOwn(target, segment) ? target[segment] : undefined;
      if (typeof next !== 'object' || next === null) setOwn(target, segment, {});
      target = target[segment] as WireRecord;
    }
    setOwn(target, key, valueOf(text, schema));
  }
  return record;
}
