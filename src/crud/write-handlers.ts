// The generic writes: create, replace (PUT), merge patch and delete of one record, each with its history entry; a
// one-row record as one statement (src/crud/row-writes.ts), a record of several tables through the unit of work
// (src/crud/unit-of-work-writes.ts).
import type { Request, Response } from 'express';
import type { EntityData } from '@mikro-orm/core';
import type { ResourceDescriptor, WireRecord } from './resource-descriptor.ts';
import { readOwnedRow } from './view-rows.ts';
import { etagOf, ifMatchStatesVersion, ifMatchVersions } from './preconditions.ts';
import { checkState, refuseWrite } from './write-refusal.ts';
import { ValidationFailed } from '../errors/app-errors.ts';
import { staleVersion, versionRequired } from '../errors/refusals.ts';
import { mergePatch } from './merge-patch.ts';
import { checkAsRequestBody } from '../validation/schema-check.ts';
import { reachesOwnRecordsOnly } from '../auth/access-rules.ts';
import { requestLocale } from '../i18n/request-locale.ts';
import { sendCreated, sendWritten } from './representation-preference.ts';
import { operationOf } from '../contract/resolution.ts';
import { statementManager } from '../db/request-context.ts';
import { isOneRow } from './record-history.ts';
import { createWithHistory, deleteWithHistory, replaceWithHistory, rowState, type Writer } from './row-writes.ts';
import { requestContextOf, pathId, principalOf, type Versioned } from './request-parts.ts';
import { unitOfWorkWrites } from './unit-of-work-writes.ts';
import { checkedReferences, writtenDetail } from './written-record.ts';

export function writeHandlers<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const { owner } = resource;
  const severalTables = unitOfWorkWrites(resource);

  /**
   * Who writes: the entry's author, and the owner a record must have when only its owner (or an admin) may change it.
   */
  function writerOf(res: Response): Writer {
    const principal = principalOf(res);
    return { changedBy: principal.username, ...(owner && reachesOwnRecordsOnly(res) && { owner: principal.subject }) };
  }

  /**
   * A one-row record replaced by `body` where it still has `version`: its version after, or undefined when none
   * matched.
   */
  async function replace(req: Request, res: Response, body: WireRecord, version: number): Promise<number | undefined> {
    return checkedReferences(resource, replaceWithHistory(statementManager(req), resource, resource.values(body),
      pathId(req), version, writerOf(res)));
  }

  /** A conditional write matched nothing: the row's state says why (404, 403, 412 or 409). */
  async function refusal(req: Request, res: Response): Promise<never> {
    refuseWrite(await rowState(statementManager(req), resource, pathId(req)), req, res, owner !== undefined);
  }
  const detailOf = (req: Request, id: number) => writtenDetail(req, resource, id);

  return {
    async create(req: Request, res: Response): Promise<void> {
      const principal = principalOf(res);
      const body = req.body as WireRecord;
      const data = { ...resource.values(body), ...owner && { [owner.property]: principal.subject } } as EntityData<E>;
      const em = statementManager(req);
      const { id, version } = await checkedReferences(resource, isOneRow(em, resource)
        ? createWithHistory(em, resource, data, principal.username)
        : severalTables.create(requestContextOf(req), res, data, body));
      // The collection's path, also when the create was asked at `/{resource}/detail-view`.
      res.set({ Location: `${req.baseUrl}/${resource.name}/${id}`, ETag: etagOf(version) });
      await sendCreated(req, res, resource.name, operationOf(req)?.representation === true, () => detailOf(req, id));
    },

    async update(req: Request, res: Response): Promise<void> {
      const body = req.body as WireRecord & Versioned;
      if (body[resource.idProperty] !== undefined && body[resource.idProperty] !== pathId(req)) {
        throw new ValidationFailed([{ field: resource.idProperty, key: 'error.id.mismatch' }]);
      }
      if (!isOneRow(statementManager(req), resource)) return severalTables.update(req, res, requestContextOf(req),
        body);
      // `If-Match` naming another version than the body's: no write can match; what is stale is told below.
      const admitted = ifMatchVersions(req);
      const version = admitted && !admitted.includes(body.version) ? undefined
        : await replace(req, res, body, body.version);
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
      if (!isOneRow(em, resource)) return severalTables.patch(req, res, requestContextOf(req), patch);
      const row = await readOwnedRow(em, resource, id);
      checkState(row && { version: row.version as number, owner: row.__owner as string | null }, req, res,
        owner !== undefined);
      const merged = mergePatch(resource.detailView(row!, requestLocale(req)), patch) as WireRecord & Versioned;
      checkAsRequestBody(`/${resource.name}/{id}`, 'put', merged);
      if (merged.version !== row!.version) throw staleVersion();
      res.set('ETag', etagOf(await replace(req, res, merged, merged.version) ?? await refusal(req, res)));
      await sendWritten(req, res, 204, resource.name, () => detailOf(req, id));
    },

    async remove(req: Request, res: Response): Promise<void> {
      const em = statementManager(req);
      if (!isOneRow(em, resource)) return severalTables.remove(req, res, requestContextOf(req));
      const id = pathId(req);
      const admitted = ifMatchVersions(req);
      // One version named: the delete states it. Several (or none that is a version): the row's is read and checked
      // first.
      const version = admitted === undefined || admitted.length === 1 ? admitted?.[0]
        : checkState(await rowState(em, resource, id), req, res, owner !== undefined).version;
      if (!await deleteWithHistory(em, resource, id, version, writerOf(res))) await refusal(req, res);
      res.status(204).end();
    },
  };
}
