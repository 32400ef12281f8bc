// The generic CRUD handlers: read the validated request, run one operation on the resource, write the answer.
import type { Request, Response } from 'express';
import { LockMode, ForeignKeyConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, RequestContext, WireRecord } from './resource-descriptor.ts';
import { viewRows, mapAsync } from './row-stream.ts';
import { readRow } from './view-rows.ts';
import { etagOf, notModified, checkIfMatch } from './preconditions.ts';
import { entityNotFound, ValidationFailed } from '../errors/app-errors.ts';
import { listFilters } from './list-filters.ts';
import { pathText } from './operations.ts';
import { exampleCondition } from './query-by-example.ts';
import { requireOwnership, type Principal } from '../auth/access-rules.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { sendDocument, sendList } from '../http/send.ts';
import { sendWritten } from './representation-preference.ts';
import { requestEntityManager, viewRowReader } from '../db/request-context.ts';
import { flushAtomically, writesSeveralRows } from '../db/atomic-flush.ts';

type Versioned = { version: number };
const context = (req: Request): RequestContext => ({ get em() { return requestEntityManager(req); }, locale: requestLocale(req) });
const principalOf = (res: Response): Principal => res.locals.principal as Principal;

/** Ids beyond ±(2^53−1), or not whole numbers, name no record (contract B, Ids). */
function pathId(req: Request): number {
  const text = pathText(req, 'id') ?? '';
  // Only the canonical decimal spelling names a record: `0x10`, `1e3` or `012` are other texts.
  const id = /^-?(0|[1-9]\d*)$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id)) throw entityNotFound();
  return id;
}

/** PostgreSQL names the violated key's column in the detail: `Key (vessel_id)=(12) is not present in table "vessel".` */
function referencesColumn(error: ForeignKeyConstraintViolationException, column: string): boolean {
  const detail = (error as { detail?: string }).detail ?? error.message;
  return detail.includes(`(${column})=`) && detail.includes('is not present');
}

export function crudHandlers<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const byId = (id: number) => ({ [resource.idProperty]: id }) as FilterQuery<E>;
  // Whether a write may change several rows is the entity's shape: worked out on the first write, not on each.
  let severalRows: boolean | undefined;
  const flush = (ctx: RequestContext) => flushAtomically(ctx.em, severalRows ??= writesSeveralRows(ctx.em, resource.entity));
  const filters = listFilters(resource);
  const { owner } = resource;

  async function load(req: Request, res: Response, ctx: RequestContext): Promise<E> {
    // An id that names no record: MikroORM's NotFoundError, which the error handler answers as 404.
    const entity = await ctx.em.findOneOrFail(resource.entity, byId(pathId(req)), { populate: resource.populate as never });
    if (owner) requireOwnership(principalOf(res), entity[owner.property] as string | null);
    checkIfMatch(req, entity.version);
    return entity;
  }

  /** A write that violates one of the resource's `references` named a record that does not exist: 400 on that field. */
  async function checkedReferences(write: Promise<void>): Promise<void> {
    try {
      await write;
    } catch (error) {
      const problem = error instanceof ForeignKeyConstraintViolationException
        && Object.entries(resource.references ?? {}).find(([column]) => referencesColumn(error, column))?.[1];
      throw problem ? new ValidationFailed([problem]) : error;
    }
  }

  /** The detail view of a record just written (`Prefer: return=representation`), read back as the views read it. */
  async function detailOf(id: number, ctx: RequestContext) {
    return resource.detailView((await readRow(ctx.em, resource, id))!, ctx.locale);
  }

  return {
    async list(req: Request, res: Response): Promise<void> {
      const ctx = context(req);
      const equalities = Object.fromEntries(filters.filter(([name]) => req.query[name] !== undefined)
        .map(([name, property]) => [property, req.query[name]]));
      // The validator has coerced the parameter to a boolean; `false` is the same as leaving it out.
      if (owner && (req.query[owner.listParameter] as unknown) === true) equalities[owner.property] = principalOf(res).subject;
      const after = req.query.after as number | undefined;
      // $and, not one object: `?sightingId=5&after=3` must keep both conditions on the id.
      const where = after === undefined ? equalities : { $and: [equalities, { [resource.idProperty]: { $gt: after } }] };
      const limit = req.query.limit as number | undefined;
      if (limit === undefined) {
        return sendList(res, resource.name, mapAsync(viewRows(viewRowReader(req), resource, where as FilterQuery<E>, 'list'), (row) => resource.listView(row, ctx.locale)));
      }
      // One row more than asked tells whether a next page exists (RFC 8288 `rel="next"`).
      const views = (await Array.fromAsync(viewRows(viewRowReader(req), resource, where as FilterQuery<E>, 'list', limit + 1))).map((row) => resource.listView(row, ctx.locale));
      if (views.length > limit) {
        views.length = limit;
        const next = new URLSearchParams(req.query as Record<string, string>);
        next.set('after', String(views.at(-1)![resource.idProperty]));
        res.set('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
      }
      await sendList(res, resource.name, (async function* () { yield* views; })());
    },

    async read(req: Request, res: Response): Promise<void> {
      const ctx = context(req);
      const row = await readRow(viewRowReader(req), resource, pathId(req));
      if (!row) throw entityNotFound();
      const version = row.version as number;
      res.set('ETag', etagOf(version));
      if (notModified(req, version)) return void res.status(304).end();
      await sendDocument(res, 200, resource.name, resource.detailView(row, ctx.locale));
    },

    async create(req: Request, res: Response): Promise<void> {
      const principal = principalOf(res);
      const ctx = context(req);
      // em.create, not `new`: it initialises the entity's collections (a vessel's names), which `new` leaves undefined.
      const entity = ctx.em.create(resource.entity, {} as never, { persist: false });
      if (owner) entity[owner.property] = principal.subject as E[typeof owner.property];
      await resource.write(entity, req.body as WireRecord, ctx);
      ctx.em.persist(entity);
      await checkedReferences(flush(ctx));
      const id = entity[resource.idProperty];
      res.set({ Location: `${req.baseUrl}${req.path.replace(/\/$/, '')}/${id}`, ETag: etagOf(entity.version) });
      await sendWritten(req, res, 201, resource.name, () => detailOf(id as number, ctx));
    },

    async update(req: Request, res: Response): Promise<void> {
      const ctx = context(req);
      const body = req.body as WireRecord & Versioned;
      if (body[resource.idProperty] !== undefined && body[resource.idProperty] !== pathId(req)) {
        throw new ValidationFailed([{ field: resource.idProperty, key: 'error.id.mismatch' }]);
      }
      const entity = await load(req, res, ctx);
      // The ORM compares the version now and again in the UPDATE's WHERE clause (STYLE 3): a stale one is 409.
      await ctx.em.lock(entity, LockMode.OPTIMISTIC, body.version);
      await resource.write(entity, body, ctx);
      await checkedReferences(flush(ctx));
      res.set('ETag', etagOf(entity.version));
      await sendWritten(req, res, 204, resource.name, () => detailOf(pathId(req), ctx));
    },

    async remove(req: Request, res: Response): Promise<void> {
      const ctx = context(req);
      const entity = await load(req, res, ctx);
      ctx.em.remove(entity);
      await flush(ctx);
      res.status(204).end();
    },

    async queryByExample(req: Request, res: Response): Promise<void> {
      const ctx = context(req);
      const where = exampleCondition(resource, req.body as WireRecord, ctx);
      await sendList(res, resource.name, mapAsync(viewRows(viewRowReader(req), resource, where, 'query'), (row) => resource.detailView(row, ctx.locale)), 204);
    },
  };
}
