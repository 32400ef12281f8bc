// A batch create's records checked as single creates are: the export's read-only fields dropped, each record held to
// the create body's schema, every problem named by the record's position.
import type { AnyResource, WireRecord } from '../resource-descriptor.ts';
import { BatchRejected, PayloadTooLarge, type RecordProblem } from '../../errors/app-errors.ts';
import { problemsAsRequestBody } from '../../validation/schema-check.ts';
import { openApiDocument, type Schema } from '../../contract/document.ts';
import { referencedNode } from '../../contract/references.ts';
import { schemaAt } from '../../contract/schemas.ts';
import type { BatchRecordTexts } from '../../http/batch-record-texts.ts';

/** A 400 lists this many problems, then how many more (openapi.yaml BatchErrors). */
export const mostRecordProblems = 100;

/** The problems of a batch's records, found by several checks (the schema, the references), told in record order. */
export class RecordProblems {
  private readonly found: RecordProblem[] = [];
  private readonly records = new Set<number>();

  add(problem: RecordProblem): void {
    this.found.push(problem);
    this.records.add(problem.record);
  }

  /** Whether the record at `position` (1-based) had a problem. */
  has(position: number): boolean {
    return this.records.has(position);
  }

  /** Throws the batch's 400 when any record had a problem: the first `mostRecordProblems`, and a count of the rest. */
  refuseAny(): void {
    if (this.found.length === 0) return;
    // A stable sort: a record's problems stay in the order its checks found them.
    const ordered = this.found.sort((a, b) => a.record - b.record);
    throw new BatchRejected(ordered.slice(0, mostRecordProblems), Math.max(0, ordered.length - mostRecordProblems));
  }
}

interface ReadOnlyFields { own: Set<string>; nested: Map<string, Set<string>> }

const readOnly = new WeakMap<AnyResource, ReadOnlyFields>();

const bodySchema = (template: string, method: string, status?: string): Schema | undefined => {
  const operation = openApiDocument.paths[template]?.[method];
  const content = status ? (operation?.responses?.[status] as { content?: Record<string, { schema?: Schema }> })
    ?.content : operation?.requestBody?.content;
  const schema = content?.['application/json']?.schema;
  return schema && referencedNode(schema);
};

/**
 * What an export carries that a create does not take (contract F): the create schema's server-generated fields (the
 * id, `version`), and, of a referenced record, the fields its detail view shows beside those its link takes (a
 * sighting's `vessel.vesselName`, `vessel.version`).
 */
function readOnlyFields(resource: AnyResource): ReadOnlyFields {
  let found = readOnly.get(resource);
  if (!found) {
    const create = bodySchema(`/${resource.name}`, 'post');
    const detail = bodySchema(`/${resource.name}/{id}`, 'get', '200');
    const own = new Set((create?.['x-server-generated'] ?? []) as string[]);
    const nested = new Map<string, Set<string>>();
    for (const name of Object.keys(create?.properties ?? {})) {
      const link = Object.keys(schemaAt(create, [name])?.properties ?? {});
      const shown = Object.keys(schemaAt(detail, [name])?.properties ?? {});
      if (link.length > 0) nested.set(name, new Set(shown.filter((field) => !link.includes(field))));
    }
    readOnly.set(resource, found = { own, nested });
  }
  return found;
}

const isObject = (value: unknown): value is WireRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether the record carries any of the export's read-only fields. */
function hasReadOnly(record: WireRecord, fields: ReadOnlyFields): boolean {
  return Object.keys(record).some((name) => {
    if (fields.own.has(name)) return true;
    const nested = fields.nested.get(name);
    const value = record[name];
    return nested !== undefined && isObject(value) && Object.keys(value).some((field) => nested.has(field));
  });
}

/**
 * The record without the export's read-only fields; own keys only, the client's object left as it was. A record
 * without any is itself: a batch's records are not copied for nothing.
 */
function withoutReadOnly(record: WireRecord, fields: ReadOnlyFields): WireRecord {
  if (!hasReadOnly(record, fields)) return record;
  const kept: WireRecord = {};
  for (const [name, value] of Object.entries(record)) {
    if (fields.own.has(name)) continue;
    const nested = fields.nested.get(name);
    kept[name] = nested && isObject(value)
      ? Object.fromEntries(Object.entries(value).filter(([field]) => !nested.has(field))) : value;
  }
  return kept;
}

export interface CheckedRecords {
  /** The records as creates take them, read-only fields dropped (a refused one dropped). */
  records: BatchRecordTexts;
  /** The problems a single create would have refused each with (the schema's rules and message keys). */
  problems: RecordProblems;
}

/** How long a batch's work holds the event loop before it lets a turn go by: others' reads wait this long at most. */
const turnMs = 1;

/**
 * A check, between records, that lets the event loop turn once `turnMs` have passed since the last turn: a batch of
 * 100,000 never holds it for the whole of its work, and a small one pays nothing for it.
 */
export function turns(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < turnMs) return undefined;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        since = performance.now();
        resolve();
      });
    });
  };
}

/**
 * A 413 past `maxRecords`; else every record checked against the create body's schema, field by field, in slices of
 * a millisecond with the event loop turning between, so that others' requests are answered meanwhile. The
 * records are read without the export's read-only fields from then on, their texts left as they were sent, and a
 * refused one is dropped: a batch's body is never held twice.
 */
export async function batchRecords(resource: AnyResource, body: BatchRecordTexts, maxRecords: number):
  Promise<CheckedRecords> {
  if (body.length > maxRecords) throw new PayloadTooLarge('error.batch.tooManyRecords', { max: maxRecords });
  const fields = readOnlyFields(resource);
  body.readThrough((value) => isObject(value) ? withoutReadOnly(value, fields) : value);
  const problems = new RecordProblems();
  const turn = turns();
  for (let index = 0; index < body.length; index += 1) {
    await turn();
    const record = body.at(index);
    if (!isObject(record)) {
      problems.add({ record: index + 1, field: 'body', key: 'error.field.type' });
      body.drop(index);
      continue;
    }
    const found = problemsAsRequestBody(`/${resource.name}`, 'post', record);
    for (const problem of found) problems.add({ record: index + 1, ...problem });
    if (found.length > 0) body.drop(index);
  }
  return { records: body, problems };
}
