// The generic writes: create, replace (PUT), merge patch and delete of one record, each with its history entry. What
// every record's write shares is here, read top-down: the request's checks, then the write of its kind, chosen once
// per request (a record of one row: one-row-writes.ts; of several tables: unit-of-work-writes.ts),
// then the answer.
import type { Request, Response } from 'express';
import type { EntityData } from '@mikro-orm/core';
import type { ResourceDescriptor, WireRecord } from '../resource-descriptor.ts';
import { etagOf, ifMatchStatesVersion } from '../preconditions.ts';
import { ValidationFailed } from '../../errors/app-errors.ts';
import { versionRequired } from '../../errors/refusals.ts';
import { sendCreated } from '../representation-preference.ts';
import { operationOf } from '../../contract/resolution.ts';
import { statementManager } from '../../db/request-context.ts';
import { isOneRow } from './record-history.ts';
import { pathId, principalOf, type Versioned } from '../request-parts.ts';
import { oneRowWrites } from './one-row-writes.ts';
import { unitOfWorkWrites } from './unit-of-work-writes.ts';
import { writtenDetail } from './written-record.ts';

export function writeHandlers<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const oneRow = oneRowWrites(resource);
  const severalTables = unitOfWorkWrites(resource);
  const writesOf = (req: Request) => isOneRow(statementManager(req), resource) ? oneRow : severalTables;

  return {
    async create(req: Request, res: Response): Promise<void> {
      const body = req.body as WireRecord;
      const { owner } = resource;
      // The descriptor's values are a new object of this request's: the owner is added to it, not to a copy.
      const data = resource.values(body) as Record<string, unknown>;
      if (owner) data[owner.property] = principalOf(res).subject;
      const { id, version } = await writesOf(req).create(req, res, data as EntityData<E>, body);
      // The collection's path, also when the create was asked at `/{resource}/detail-view`. Set as they are: express's
      // `res.set` looks each name over for a Content-Type to complete.
      res.setHeader('Location', `${req.baseUrl}/${resource.name}/${id}`);
      res.setHeader('ETag', etagOf(version));
      await sendCreated(req, res, resource.name, operationOf(req)?.representation === true,
        () => writtenDetail(req, resource, id));
    },

    async update(req: Request, res: Response): Promise<void> {
      const body = req.body as WireRecord & Versioned;
      if (body[resource.idProperty] !== undefined && body[resource.idProperty] !== pathId(req)) {
        throw new ValidationFailed([{ field: resource.idProperty, key: 'error.id.mismatch' }]);
      }
      await writesOf(req).update(req, res, body);
    },

    /**
     * JSON Merge Patch onto the record's detail view, then a replacement like PUT's with the merged record, checked
     * against PUT's body schema. The version the caller changes is required: `If-Match` (412) or `version` in the
     * patch (409).
     */
    async patch(req: Request, res: Response): Promise<void> {
      const patch = req.body as WireRecord & Partial<Versioned>;
      if (patch.version === undefined && !ifMatchStatesVersion(req)) throw versionRequired();
      await writesOf(req).patch(req, res, patch);
    },

    remove: (req: Request, res: Response): Promise<void> => writesOf(req).remove(req, res),
  };
}
