// A record's change and its history entry, written together (one statement, or one transaction): no change without its
// entry, none without its change.
import { ReferenceKind, type EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';
import { openApiDocument } from '../../contract/document.ts';
import { parametersOf } from '../../contract/parameters.ts';
import type { AnyResource } from '../resource-descriptor.ts';
import { byIdStatement } from '../view-rows.ts';
import { signalCommit } from '../../db/commit-signal.ts';

export type Change = 'created' | 'updated' | 'deleted';

/** The feed's filter values of one record: the vessel a sighting is of, and so on. */
export type Scope = Record<string, unknown>;

/** The history entry's columns, in the order every statement writing one lists them. */
export const entryColumns =
  '"collection", "record_id", "version", "change", "changed_at", "changed_by", "scope", "row"';

const filters = new WeakMap<AnyResource, ReadonlyArray<readonly [string, string]>>();

/** `[query parameter, entity property]` of each filter the resource's change feed declares in openapi.yaml. */
export function feedFilters(resource: AnyResource): ReadonlyArray<readonly [string, string]> {
  let found = filters.get(resource);
  if (!found) {
    found = parametersOf(openApiDocument.paths[`/${resource.name}/events`]?.get)
      .filter((parameter) => parameter.in === 'query')
      .map(({ name }) => [name, resource.filterProperties?.[name] ?? name] as const);
    filters.set(resource, found);
  }
  return found;
}

/** The record's values of its feed's filters (a relation by its id), read from the entity. */
export function scopeOf(em: EntityManager, resource: AnyResource, entity: object): Scope {
  const properties =
    em.getMetadata().get(resource.entity).properties as Record<string, { targetMeta?: { primaryKeys: string[] } }>;
  return Object.fromEntries(feedFilters(resource).map(([name, property]) => {
    const value = (entity as Record<string, unknown>)[property] ?? null;
    const key = properties[property]?.targetMeta?.primaryKeys[0];
    return [name, key && value !== null ? (value as Record<string, unknown>)[key] : value];
  }));
}

export interface HistoryEntry {
  id: number;
  version: number;
  change: Change;
  changedBy: string | null;
  /** The scope before and after the change: a subscriber filtering by either sees it. */
  scopes: Scope[];
}

/** `{"vesselId": [5, 7]}`: each filter's distinct values before and after. */
function scopeValues(scopes: Scope[]): Record<string, unknown[]> {
  const values: Record<string, unknown[]> = {};
  for (const scope of scopes) {
    for (const [name, value] of Object.entries(scope)) {
      const seen = values[name] ??= [];
      if (!seen.includes(value)) seen.push(value);
    }
  }
  return values;
}

/** Writes the entry inside the change's transaction: the record's view row as this transaction sees it. */
async function writeEntry(em: EntityManager, resource: AnyResource, entry: HistoryEntry): Promise<void> {
  const head = [resource.name, entry.id, entry.version, entry.change];
  const tail = [entry.changedBy, JSON.stringify(scopeValues(entry.scopes))];
  if (entry.change === 'deleted') {
    await (em as SqlEntityManager).execute(
      `insert into "record_change" (${entryColumns}) values (?, ?, ?, ?, clock_timestamp(), ?, ?, null)`,
      [...head, ...tail]);
  } else {
    await (em as SqlEntityManager).execute(`insert into "record_change" (${entryColumns}) select ?, ?, ?, ?, ` +
      `clock_timestamp(), ?, ?, to_jsonb("v") from (${byIdStatement(em, resource)}) as "v"`,
      [...head, ...tail, entry.id]);
  }
}

/**
 * Flushes the unit of work and writes its history entry in one transaction. `entry` is asked after the flush (the new
 * version is known then) and says undefined when nothing changed (a replacement with the same values keeps its
 * version).
 */
export async function commitWithHistory(em: EntityManager, resource: AnyResource,
  entry: () => HistoryEntry | undefined): Promise<void> {
  await em.begin();
  try {
    await em.flush();
    const made = entry();
    if (made) await writeEntry(em, resource, made);
    await em.commit();
    if (made) signalCommit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
}

const oneRowRecords = new WeakMap<AnyResource, boolean>();

/** Whether a record is one row of its table alone (no collection of rows in other tables, as a vessel's names are). */
export function isOneRow(em: EntityManager, resource: AnyResource): boolean {
  let oneRow = oneRowRecords.get(resource);
  if (oneRow === undefined) {
    const collections = [ReferenceKind.ONE_TO_MANY, ReferenceKind.MANY_TO_MANY] as string[];
    oneRow = !em.getMetadata().get(resource.entity).relations.some((relation) => collections.includes(relation.kind));
    oneRowRecords.set(resource, oneRow);
  }
  return oneRow;
}
