// What the generic writes share about the record they write: a reference it names that does not exist is a 400 on
// that field, and its detail view, read back as the views read it, answers `Prefer: return=representation`.
import type { Request } from 'express';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../resource-descriptor.ts';
import { readRow } from '../view-rows.ts';
import { ValidationFailed } from '../../errors/app-errors.ts';
import { requestLocale } from '../../i18n/request-locale.ts';
import { statementManager } from '../../db/request-context.ts';

/**
 * PostgreSQL names the violated key's column in the detail: `Key (vessel_id)=(12) is not present in table "vessel".`
 */
function referencesColumn(error: ForeignKeyConstraintViolationException, column: string): boolean {
  const detail = (error as { detail?: string }).detail ?? error.message;
  return detail.includes(`(${column})=`) && detail.includes('is not present');
}

/** A write that violates one of the resource's `references` named a record that does not exist: 400 on that field. */
export async function checkedReferences<E extends object, T>(resource: ResourceDescriptor<E>,
  write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const problem = error instanceof ForeignKeyConstraintViolationException
      && Object.entries(resource.references ?? {}).find(([column]) => referencesColumn(error, column))?.[1];
    throw problem ? new ValidationFailed([problem]) : error;
  }
}

/** The detail view of a record just written (`Prefer: return=representation`), read back as the views read it. */
export async function writtenDetail<E extends object>(req: Request, resource: ResourceDescriptor<E>,
  id: number): Promise<unknown> {
  return resource.detailView((await readRow(statementManager(req), resource, id))!, requestLocale(req));
}
