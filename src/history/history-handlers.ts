// A record's history on the wire: its versions newest first, filtered by version and paged, and one version's detail
// view (docs/api.md#versions-changes-and-partial-updates; deprecated since contract 1.2.0 for the filtered history).
import type { Request, Response } from 'express';
import type { EntityManager } from '@mikro-orm/core';
import type { AnyResource, ViewRow } from '../crud/resource-descriptor.ts';
import { pathNumber } from '../crud/operations.ts';
import { countIfPreferred } from '../crud/representation-preference.ts';
import { requestEntityManager } from '../db/request-context.ts';
import { entityNotFound } from '../errors/refusals.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { sendDocument, sendList } from '../http/send.ts';
import type { Principal } from '../auth/access-rules.ts';

interface EntryRow {
  version: number;
  change: 'created' | 'updated' | 'deleted';
  changed_at: string;
  changed_by: string | null;
  row: ViewRow | null;
}

// The instant as the contract writes it, formatted by the database so PostgreSQL and PGlite give the same text.
const entryColumns = `"version", "change", "changed_by", "row", to_char("changed_at" at time zone 'UTC', ` +
  `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "changed_at"`;
const ofRecord = `from "record_change" where "collection" = ? and "record_id" = ?`;

/** History is read from the primary: a version just written is there at once. */
const run = async <T>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'get'): Promise<T> =>
  await em.getConnection('write').execute(sql, params, method) as T;

export function historyHandlers(resource: AnyResource) {
  return {
    async versions(req: Request, res: Response): Promise<void> {
      const em = requestEntityManager(req);
      const id = pathNumber(req, 'id');
      const limit = req.query.limit as number | undefined;
      const after = req.query.after as number | undefined;
      // An equality filter like a list's: the entries of one version (two after a delete, the `deleted` one first).
      const version = req.query.version as number | undefined;
      const filter = version === undefined ? '' : ` and "version" = ?`;
      const filterParams = version === undefined ? [] : [version];
      // A later page never holds the `deleted` entry: it is always the newest (see the `Link` below).
      const page = after === undefined ? '' : ` and "version" < ? and "change" <> 'deleted'`;
      // Without a filter or a cursor, no entry means no history; with one, only a query for any entry tells.
      const narrowed = after !== undefined || version !== undefined;
      const [entries, exists] = await Promise.all([
        run<EntryRow[]>(em, `select ${entryColumns} ${ofRecord}${filter}${page} order by "event_id" desc limit ?`,
          [resource.name, id, ...filterParams, ...(after === undefined ? [] : [after]), (limit ?? 1000) + 1], 'all'),
        narrowed ? run<object | undefined>(em, `select 1 ${ofRecord} limit 1`, [resource.name, id], 'get') : undefined,
      ]);
      if (!entries.length && !exists) throw entityNotFound();
      await countIfPreferred(req, res, async () => Number((await run<{ total: string | number }>(em,
        `select count(*) as "total" ${ofRecord}${filter}`,
        [resource.name, id, ...filterParams], 'get')).total));
      const locale = requestLocale(req);
      const admin = (res.locals.principal as Principal).roles.has('admin');
      const size = limit ?? 1000;
      if (entries.length > size) {
        entries.length = size;
        const last = entries.at(-1)!;
        // The `deleted` entry has the version of the update before it: the next page starts at that update.
        const next = new URLSearchParams({
          ...(version !== undefined && { version: String(version) }), ...(limit && { limit: String(limit) }),
          after: String(last.change === 'deleted' ? last.version + 1 : last.version),
        });
        // Beside any other link of the answer (a deprecation's).
        res.append('Link', `<${req.baseUrl}${req.path}?${next}>; rel="next"`);
      }
      const views = entries.map((entry) => ({
        version: entry.version,
        change: entry.change,
        changedAt: entry.changed_at,
        ...(admin && { changedBy: entry.changed_by }),
        record: entry.row && resource.detailView(entry.row, locale),
      }));
      await sendList(res, 'version', [views], { collection: 'versions' });
    },

    async version(req: Request, res: Response): Promise<void> {
      const em = requestEntityManager(req);
      const entry = await run<{ row: ViewRow } | undefined>(em,
        `select "row" ${ofRecord} and "version" = ? and "change" <> 'deleted'`,
        [resource.name, pathNumber(req, 'id'), pathNumber(req, 'version')], 'get');
      if (!entry) throw entityNotFound();
      await sendDocument(res, 200, resource.name, resource.detailView(entry.row, requestLocale(req)));
    },
  };
}
