// The generic writes of a record of several tables (a vessel and its names): the entity loaded and checked, changed
// through the unit of work, and written with its history entry in one transaction (src/crud/write/record-history.ts).
import type { Request, Response } from 'express';
import { LockMode, type EntityData, type FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, RequestContext, WireRecord } from '../resource-descriptor.ts';
import { readRow } from '../view-rows.ts';
import { etagOf, checkIfMatch } from '../preconditions.ts';
import { entityNotFound, staleVersion } from '../../errors/refusals.ts';
import { mergePatch } from './merge-patch.ts';
import { checkAsRequestBody } from '../../validation/schema-check.ts';
import { requireOwnership } from '../../auth/access-rules.ts';
import { sendWritten } from '../representation-preference.ts';
import { commitWithHistory, scopeOf, type Change, type Scope } from './record-history.ts';
import { pathId, principalOf, requestContextOf, type Versioned } from '../request-parts.ts';
import { checkedReferences, writtenDetail } from './written-record.ts';

export function unitOfWorkWrites<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const byId = (id: number) => ({ [resource.idProperty]: id }) as FilterQuery<E>;
  /**
   * Writes the unit of work with its history entry. `before` is the entity's version and scope as loaded: the
   * entry's scope holds both, and an update that changed nothing (same version) writes no entry.
   */
  const commit = (ctx: RequestContext, res: Response, entity: E, change: Change,
    before?: { version: number; scope: Scope }) =>
    commitWithHistory(ctx.em, resource, () => (change === 'updated' && entity.version === before?.version ? undefined
      : {
      id: entity[resource.idProperty] as number,
      version: entity.version,
      change,
      changedBy: principalOf(res).username,
      scopes: change === 'deleted' ? [before!.scope]
        : [...(before ? [before.scope] : []), scopeOf(ctx.em, resource, entity)],
    }));
  const stateOf = (ctx: RequestContext, entity: E) =>
    ({ version: entity.version, scope: scopeOf(ctx.em, resource, entity) });
  const { owner } = resource;

  async function load(req: Request, res: Response, ctx: RequestContext): Promise<E> {
    // An id that names no record: MikroORM's NotFoundError, which the error handler answers as 404.
    const entity = await ctx.em.findOneOrFail(resource.entity, byId(pathId(req)),
      { populate: resource.populate as never });
    if (owner) requireOwnership(res, entity[owner.property] as string | null);
    checkIfMatch(req, entity.version);
    return entity;
  }

  async function create(req: Request, res: Response, data: EntityData<E>,
    body: WireRecord): Promise<{ id: number; version: number }> {
    const ctx = requestContextOf(req);
    // em.create, not `new`: it initialises the entity's collections (a vessel's names), which `new` leaves undefined.
    const entity = ctx.em.create(resource.entity, data as never, { persist: false });
    resource.writeRelated?.(entity, body, ctx.em);
    ctx.em.persist(entity);
    await checkedReferences(resource, commit(ctx, res, entity, 'created'));
    return { id: entity[resource.idProperty] as number, version: entity.version };
  }

  async function replace(req: Request, res: Response, ctx: RequestContext, body: WireRecord & Versioned,
    entity: E): Promise<void> {
    // The ORM compares the version now and again in the UPDATE's WHERE clause: a stale one is 409.
    await ctx.em.lock(entity, LockMode.OPTIMISTIC, body.version);
    const before = stateOf(ctx, entity);
    ctx.em.assign(entity, resource.values(body) as never);
    resource.writeRelated?.(entity, body, ctx.em);
    await checkedReferences(resource, commit(ctx, res, entity, 'updated', before));
    res.set('ETag', etagOf(entity.version));
    await sendWritten(req, res, 204, resource.name, () => writtenDetail(req, resource, pathId(req)));
  }

  async function update(req: Request, res: Response, body: WireRecord & Versioned): Promise<void> {
    const ctx = requestContextOf(req);
    await replace(req, res, ctx, body, await load(req, res, ctx));
  }

  async function patch(req: Request, res: Response, changes: WireRecord & Partial<Versioned>): Promise<void> {
    const ctx = requestContextOf(req);
    // The view the patch applies to, then the entity it writes; a change in between is a conflict, as any stale
    // version.
    const row = await readRow(ctx.em, resource, pathId(req));
    if (!row) throw entityNotFound();
    const entity = await load(req, res, ctx);
    if (entity.version !== row.version) throw staleVersion();
    const merged = mergePatch(resource.detailView(row, ctx.locale), changes) as WireRecord & Versioned;
    checkAsRequestBody(`/${resource.name}/{id}`, 'put', merged);
    await replace(req, res, ctx, merged, entity);
  }

  async function remove(req: Request, res: Response): Promise<void> {
    const ctx = requestContextOf(req);
    const entity = await load(req, res, ctx);
    const before = stateOf(ctx, entity);
    ctx.em.remove(entity);
    await commit(ctx, res, entity, 'deleted', before);
    res.status(204).end();
  }

  return { create, update, patch, remove };
}
