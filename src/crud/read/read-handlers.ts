// The generic reads of a collection: list, read and query by example (the writes: src/crud/write/write-handlers.ts).
import type { Request, Response } from 'express';
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor, ViewRow, WireRecord } from '../resource-descriptor.ts';
import {
  viewRowBatches, viewRowPage, mapBatches, wholeListStart, isWholeList, rowsAfter, type BatchedRead,
} from './row-stream.ts';
import { readRow } from '../view-rows.ts';
import { etagOf, notModified } from '../preconditions.ts';
import { entityNotFound } from '../../errors/refusals.ts';
import { listConditions, listFilters } from './list-filters.ts';
import { exampleCondition } from './query-by-example.ts';
import { listViewOf } from './list-view.ts';
import { plainCsvColumns, sendDocument, sendList } from '../../http/send.ts';
import { sendCopiedCsv } from '../../http/send-copied.ts';
import { copiedCsv } from './copied-export.ts';
import { countIfPreferred } from '../representation-preference.ts';
import {
  cursorOf, cursorValues, keysetAfter, keyValues, leadingSort, listOrder, type SortKey,
} from './list-order.ts';
import { countMatching } from './list-count.ts';
import { statementManager } from '../../db/request-context.ts';
import { clientGone, streamShareOf, type StreamShare } from '../../db/stream-share.ts';
import { requestLocale } from '../../i18n/request-locale.ts';
import { requestContextOf, pathId, principalOf, type Versioned } from '../request-parts.ts';

/**
 * A query by example is the list with its example's condition besides the filters (read/query-by-example.ts): the
 * condition on the request under a symbol (src/contract/resolution.ts says why not a `WeakMap`).
 */
const exampleKey = Symbol('example condition');
type WithExample<E> = Request & { [exampleKey]?: FilterQuery<E> };

export function readHandlers<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const filters = listFilters(resource);
  const { owner } = resource;

  const handlers = {
    async list(req: Request, res: Response): Promise<void> {
      const ctx = requestContextOf(req);
      const reader = statementManager(req);
      const condition = (req as WithExample<E>)[exampleKey];
      const view = listViewOf(req, condition ? 'detail' : 'list');
      const shown = (row: ViewRow) => (view === 'detail' ? resource.detailView(row, ctx.locale) : resource.listView(row,
        ctx.locale));
      const conditions: Record<string, unknown> = listConditions(filters, req.query);
      // The validator has coerced the parameter to a boolean; `false` is the same as leaving it out.
      if (owner && (req.query[owner.listParameter] as unknown) === true) conditions[owner.property] =
        principalOf(res).subject;
      if (condition) conditions.$and = [condition];
      // Counting reads no entity, so the shared EntityManager may run it; it runs beside the page's read.
      // A CSV's columns name every key of the view's maps (a vessel's languages): asked only when it has maps.
      const mapKeys = resource.mapKeys && view === 'detail' ? () => resource.mapKeys!(reader) : undefined;
      const counted = countIfPreferred(req, res, () => countMatching(reader, resource, conditions as FilterQuery<E>));
      const { cursor, after, limit } = req.query as { cursor?: string; after?: number; limit?: number };
      const sort = leadingSort(resource, req.query);
      const keys = listOrder(reader, resource, sort, ctx.locale);
      // Without `sort`, pages continue after an id (docs/behaviour.md#list); with it, after the last row's keys (an
      // opaque cursor).
      const continued = cursor !== undefined ? keysetAfter(keys, cursorValues(cursor, keys))
        : after !== undefined ? { [resource.idProperty]: { $gt: after } } : undefined;
      // $and, not one object: `?sightingId=5&after=3` must keep both conditions on the id.
      const where = (continued ? { $and: [conditions, continued] } : conditions) as FilterQuery<E>;
      if (limit === undefined) {
        const emptyStatus = condition ? 204 : 200;
        const ordered = { kind: 'list', view, keys, locale: ctx.locale } as const;
        // A whole list streams within the pool's share, and stops waiting for a place once its client has gone; its
        // first rows are read as a page is (one short statement, like a read by id), and often are all of it.
        let streamed: BatchedRead & { keys: readonly SortKey[]; share: StreamShare } | undefined;
        const streamedRead = () => streamed ??= { ...ordered, share: streamShareOf(res), signal: clientGone(res) };
        const columns = plainCsvColumns(res);
        const copied = columns && copiedCsv(reader, resource, where, columns, streamedRead());
        if (copied) return sendCopiedCsv(res, resource.name, columns!, copied, { emptyStatus, ready: counted });
        const start = wholeListStart(reader, resource, where, ordered);
        const first = start && (counted ? (await Promise.all([start, counted]))[0] : await start);
        if (first && isWholeList(first)) {
          return sendList(res, resource.name, [first.map(shown)], { emptyStatus, ready: counted, mapKeys });
        }
        const batches = first ? await rowsAfter(reader, resource, where, first, streamedRead())
          : viewRowBatches(reader, resource, where, streamedRead());
        return sendList(res, resource.name, mapBatches(batches, shown), { emptyStatus, ready: counted,
          mapKeys });
      }
      // One row more than asked tells whether a next page exists (RFC 8288 `rel="next"`).
      const page = viewRowPage(reader, resource, where, { kind: 'list', view, limit: limit + 1, keys,
        locale: ctx.locale });
      const rows = counted ? (await Promise.all([page, counted]))[0] : await page;
      if (rows.length > limit) {
        rows.length = limit;
        const next = new URLSearchParams(req.query as Record<string, string>);
        next.delete(sort === undefined ? 'after' : 'cursor');
        if (sort === undefined) next.set('after', String(rows.at(-1)![keys.at(-1)!.column]));
        else next.set('cursor', cursorOf(keyValues(keys, rows.at(-1)!)));
        // Beside any other link of the answer (a deprecation's).
        res.append('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
      }
      await sendList(res, resource.name, [rows.map(shown)], { emptyStatus: condition ? 204 : 200,
        mapKeys });
    },

    async read(req: Request, res: Response): Promise<void> {
      const row = await readRow(statementManager(req), resource, pathId(req));
      if (!row) throw entityNotFound();
      const version = row.version as number;
      res.setHeader('ETag', etagOf(version));
      if (notModified(req, version)) return void res.status(304).end();
      await sendDocument(res, 200, resource.name, resource.detailView(row, requestLocale(req)));
    },

    /**
     * The list of the records like the example, with the list's filters, order, paging and count
     * (docs/behaviour.md#query-by-example).
     */
    async queryByExample(req: Request, res: Response): Promise<void> {
      (req as WithExample<E>)[exampleKey] = exampleCondition(resource, req.body as WireRecord, requestContextOf(req));
      await handlers.list(req, res);
    },
  };
  return handlers;
}
