// A one-row record's create, replacement and delete, each one statement with its history entry: one round trip, no
// transaction to open and commit, a statement PostgreSQL parsed before (src/db/named-statements.ts).
import type { EntityManager } from '@mikro-orm/core';
import type { AnyResource } from '../resource-descriptor.ts';
import { signalCommit } from '../../db/commit-signal.ts';
import { runNamed, type NamedStatement } from '../../db/named-statements.ts';
import { rowValues } from './row-values.ts';
import { deleteStatement, insertStatement, stateStatement, updateStatement } from './row-statements.ts';

export interface Written { id: number; version: number }

/** Who writes: the entry's author, and, when only the owner may change the record, the owner it must have. */
export interface Writer { changedBy: string | null; owner?: string }

/** What a write that matched nothing finds instead: the row's version (and owner), or nothing. */
export interface RowState { version: number; owner?: string | null }

async function run(em: EntityManager, statement: NamedStatement, params: unknown[]): Promise<Written | undefined> {
  const [row] = await runNamed<{ id: string | number; version: number }>(em, statement, params);
  if (!row) return undefined;
  signalCommit();
  return { id: Number(row.id), version: row.version };
}

/** Creates the record of `data` (the descriptor's `values`, and its owner), and its `created` entry. */
export async function createWithHistory(em: EntityManager, resource: AnyResource, data: object,
  changedBy: string | null): Promise<Written> {
  const { columns, values } = rowValues(em, resource, data);
  // The row's values, then its entry's: this call's own array, extended rather than copied.
  values.push(resource.name, changedBy);
  return (await run(em, insertStatement(em, resource, columns), values))!;
}

/**
 * Replaces record `id` with `data` (the descriptor's `values`), where it still has `version` (and `writer.owner`, when
 * given): the new version, the same when no value changed (no entry then), or undefined when no row matched.
 */
export async function replaceWithHistory(em: EntityManager, resource: AnyResource, data: object, id: number,
  version: number, writer: Writer): Promise<number | undefined> {
  const { columns, values } = rowValues(em, resource, data);
  const owned = writer.owner !== undefined;
  const params: unknown[] = [...values, ...values, id, version];
  if (owned) params.push(writer.owner);
  params.push(resource.name, writer.changedBy, version);
  return (await run(em, updateStatement(em, resource, columns, owned), params))?.version;
}

/**
 * Deletes record `id` [where it has `version`] [and `writer.owner`], with its `deleted` entry; false when none matched.
 */
export async function deleteWithHistory(em: EntityManager, resource: AnyResource, id: number,
  version: number | undefined, writer: Writer): Promise<boolean> {
  const [versioned, owned] = [version !== undefined, writer.owner !== undefined];
  const params = [id, ...versioned ? [version] : [], ...owned ? [writer.owner] : [], resource.name, writer.changedBy];
  return (await run(em, deleteStatement(em, resource, versioned, owned), params)) !== undefined;
}

/**
 * The row's state, read when a conditional write matched nothing, to tell a missing row from a stale or foreign one.
 */
export async function rowState(em: EntityManager, resource: AnyResource, id: number): Promise<RowState | undefined> {
  const [row] = await runNamed<RowState>(em, stateStatement(em, resource), [id]);
  return row;
}
