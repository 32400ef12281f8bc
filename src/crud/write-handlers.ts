// The generic writes: create, replace (PUT), merge patch and delete of one record, each with its history entry; a
// one-row record as one statement (src/crud/row-writes.ts), a record of several tables through the unit of work.
import type { Request, Response } from 'express';
import { LockMode, ForeignKeyConstraintViolationException, type EntityData, type FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, RequestContext, WireRecord } from './resource-descriptor.ts';
import { readOwnedRow, readRow } from './view-rows.ts';
import { etagOf, checkIfMatch, ifMatchStatesVersion, ifMatchVersions } from './preconditions.ts';
import { checkState, refuseWrite } from './write-refusal.ts';
import { ValidationFailed } from '../errors/app-errors.ts';
import { entityNotFound, staleVersion, versionRequired } from '../errors/refusals.ts';
import { mergePatch } from './merge-patch.ts';
import { checkAsRequestBody } from '../validation/schema-check.ts';
import { reachesOwnRecordsOnly, requireOwnership } from '../auth/access-rules.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { sendWritten } from './representation-preference.ts';
import { statementManager } from '../db/request-context.ts';
import { commitWithHistory, isOneRow, scopeOf, type Change, type Scope } from './record-history.ts';
import { createWithHistory, deleteWithHistory, replaceWithHistory, rowState, type Writer } from './row-writes.ts';
import { requestContextOf, pathId, principalOf, type Versioned } from './request-parts.ts';

/** PostgreSQL names the violated key's column in the detail: `Key (vessel_id)=(12) is not present in table "vessel".` */
function referencesColumn(error: ForeignKeyConstraintViolationException, column: string): boolean {
  const detail = (error as { detail?: string }).detail ?? error.message;
  return detail.includes(`(${column})=`) && detail.includes('is not present');
}

export function writeHandlers<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const byId = (id: number) => ({ [resource.idProperty]: id }) as FilterQuery<E>;
  /**
   * Writes the unit of work with its history entry. `before` is the entity's version and scope as loaded: the
   * entry's scope holds both, and an update that changed nothing (same version) writes no entry.
   */
  const commit = (ctx: RequestContext, res: Response, entity: E, change: Change, before?: { version: number; scope: Scope }) =>
    commitWithHistory(ctx.em, resource, () => (change === 'updated' && entity.version === before?.version ? undefined : {
      id: entity[resource.idProperty] as number,
      version: entity.version,
      change,
      changedBy: principalOf(res).username,
      scopes: change === 'deleted' ? [before!.scope] : [...(before ? [before.scope] : []), scopeOf(ctx.em, resource, entity)],
    }));
  const stateOf = (ctx: RequestContext, entity: E) => ({ version: entity.version, scope: scopeOf(ctx.em, resource, entity) });
  const { owner } = resource;

  async function load(req: Request, res: Response, ctx: RequestContext): Promise<E> {
    // An id that names no record: MikroORM's NotFoundError, which the error handler answers as 404.
    const entity = await ctx.em.findOneOrFail(resource.entity, byId(pathId(req)), { populate: resource.populate as never });
    if (owner) requireOwnership(res, entity[owner.property] as string | null);
    checkIfMatch(req, entity.version);
    return entity;
  }

  /** A write that violates one of the resource's `references` named a record that does not exist: 400 on that field. */
  async function checkedReferences<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (error) {
      const problem = error instanceof ForeignKeyConstraintViolationException
        && Object.entries(resource.references ?? {}).find(([column]) => referencesColumn(error, column))?.[1];
      throw problem ? new ValidationFailed([problem]) : error;
    }
  }

  /** A record of several tables (a vessel and its names): the unit of work and its history entry, in one transaction. */
  async function createInUnitOfWork(ctx: RequestContext, res: Response, data: EntityData<E>, body: WireRecord): Promise<{ id: number; version: number }> {
    // em.create, not `new`: it initialises the entity's collections (a vessel's names), which `new` leaves undefined.
    const entity = ctx.em.create(resource.entity, data as never, { persist: false });
    resource.writeRelated?.(entity, body, ctx.em);
    ctx.em.persist(entity);
    await commit(ctx, res, entity, 'created');
    return { id: entity[resource.idProperty] as number, version: entity.version };
  }

  /** The detail view of a record just written (`Prefer: return=representation`), read back as the views read it. */
  async function detailOf(req: Request, id: number) {
    return resource.detailView((await readRow(statementManager(req), resource, id))!, requestLocale(req));
  }

  /** Who writes: the entry's author, and the owner a record must have when only its owner (or an admin) may change it. */
  function writerOf(res: Response): Writer {
    const principal = principalOf(res);
    return { changedBy: principal.username, ...(owner && reachesOwnRecordsOnly(res) && { owner: principal.subject }) };
  }

  /** A one-row record replaced by `body` where it still has `version`: its version after, or undefined when none matched. */
  async function replace(req: Request, res: Response, body: WireRecord, version: number): Promise<number | undefined> {
    return checkedReferences(replaceWithHistory(statementManager(req), resource, resource.values(body), pathId(req), version, writerOf(res)));
  }

  /** A conditional write matched nothing: the row's state says why (404, 403, 412 or 409). */
  async function refusal(req: Request, res: Response): Promise<never> {
    refuseWrite(await rowState(statementManager(req), resource, pathId(req)), req, res, owner !== undefined);
  }

  /** A record of several tables (a vessel and its names): loaded, checked, written with its entry in one transaction. */
  async function updateInUnitOfWork(req: Request, res: Response, ctx: RequestContext, body: WireRecord & Versioned, loaded?: E): Promise<void> {
    const entity = loaded ?? await load(req, res, ctx);
    // The ORM compares the version now and again in the UPDATE's WHERE clause (STYLE 3): a stale one is 409.
    await ctx.em.lock(entity, LockMode.OPTIMISTIC, body.version);
    const before = stateOf(ctx, entity);
    ctx.em.assign(entity, resource.values(body) as never);
    resource.writeRelated?.(entity, body, ctx.em);
    await checkedReferences(commit(ctx, res, entity, 'updated', before));
    res.set('ETag', etagOf(entity.version));
    await sendWritten(req, res, 204, resource.name, () => detailOf(req, pathId(req)));
  }

  async function patchInUnitOfWork(req: Request, res: Response, ctx: RequestContext, patch: WireRecord & Partial<Versioned>): Promise<void> {
    // The view the patch applies to, then the entity it writes; a change in between is a conflict, as any stale version.
    const row = await readRow(ctx.em, resource, pathId(req));
    if (!row) throw entityNotFound();
    const entity = await load(req, res, ctx);
    if (entity.version !== row.version) throw staleVersion();
    const merged = mergePatch(resource.detailView(row, ctx.locale), patch) as WireRecord & Versioned;
    checkAsRequestBody(`/${resource.name}/{id}`, 'put', merged);
    await updateInUnitOfWork(req, res, ctx, merged, entity);
  }

  async function removeInUnitOfWork(req: Request, res: Response, ctx: RequestContext): Promise<void> {
    const entity = await load(req, res, ctx);
    const before = stateOf(ctx, entity);
    ctx.em.remove(entity);
    await commit(ctx, res, entity, 'deleted', before);
    res.status(204).end();
  }

  return {
    async create(req: Request, res: Response): Promise<void> {
      const principal = principalOf(res);
      const body = req.body as WireRecord;
      const data = { ...resource.values(body), ...owner && { [owner.property]: principal.subject } } as EntityData<E>;
      const em = statementManager(req);
      const { id, version } = await checkedReferences(isOneRow(em, resource)
        ? createWithHistory(em, resource, data, principal.username)
        : createInUnitOfWork(requestContextOf(req), res, data, body));
      res.set({ Location: `${req.baseUrl}${req.path.replace(/\/$/, '')}/${id}`, ETag: etagOf(version) });
      await sendWritten(req, res, 201, resource.name, () => detailOf(req, id));
    },

    async update(req: Request, res: Response): Promise<void> {
      const body = req.body as WireRecord & Versioned;
      if (body[resource.idProperty] !== undefined && body[resource.idProperty] !== pathId(req)) {
        throw new ValidationFailed([{ field: resource.idProperty, key: 'error.id.mismatch' }]);
      }
      if (!isOneRow(statementManager(req), resource)) return updateInUnitOfWork(req, res, requestContextOf(req), body);
      // `If-Match` naming another version than the body's: no write can match; what is stale is told below.
      const admitted = ifMatchVersions(req);
      const version = admitted && !admitted.includes(body.version) ? undefined : await replace(req, res, body, body.version);
      res.set('ETag', etagOf(version ?? await refusal(req, res)));
      await sendWritten(req, res, 204, resource.name, () => detailOf(req, pathId(req)));
    },

    /**
     * JSON Merge Patch onto the record's detail view, then a replacement like PUT's with the merged record, checked
     * against PUT's body schema. The version the caller changes is required: `If-Match` (412) or `version` in the
     * patch (409). Two round trips: the merge needs the record as it is (RFC 7396), and the merged record must pass
     * the replacement's schema before anything is written; then the same conditional write as PUT's.
     */
    async patch(req: Request, res: Response): Promise<void> {
      const patch = req.body as WireRecord & Partial<Versioned>;
      if (patch.version === undefined && !ifMatchStatesVersion(req)) throw versionRequired();
      const id = pathId(req);
      const em = statementManager(req);
      if (!isOneRow(em, resource)) return patchInUnitOfWork(req, res, requestContextOf(req), patch);
      const row = await readOwnedRow(em, resource, id);
      checkState(row && { version: row.version as number, owner: row.__owner as string | null }, req, res, owner !== undefined);
      const merged = mergePatch(resource.detailView(row!, requestLocale(req)), patch) as WireRecord & Versioned;
      checkAsRequestBody(`/${resource.name}/{id}`, 'put', merged);
      if (merged.version !== row!.version) throw staleVersion();
      res.set('ETag', etagOf(await replace(req, res, merged, merged.version) ?? await refusal(req, res)));
      await sendWritten(req, res, 204, resource.name, () => detailOf(req, id));
    },

    async remove(req: Request, res: Response): Promise<void> {
      const em = statementManager(req);
      if (!isOneRow(em, resource)) return removeInUnitOfWork(req, res, requestContextOf(req));
      const id = pathId(req);
      const admitted = ifMatchVersions(req);
      // One version named: the delete states it. Several (or none that is a version): the row's is read and checked first.
      const version = admitted === undefined || admitted.length === 1 ? admitted?.[0]
        : checkState(await rowState(em, resource, id), req, res, owner !== undefined).version;
      if (!await deleteWithHistory(em, resource, id, version, writerOf(res))) await refusal(req, res);
      res.status(204).end();
    },
  };
}
