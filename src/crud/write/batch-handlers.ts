// `POST /{resource}/batch`: many creates in one request, all or nothing, answered with the new ids in input order.
import type { Request, Response } from 'express';
import type { AnyResource } from '../resource-descriptor.ts';
import { batchRecords } from './batch-records.ts';
import { createBatch } from './batch-writes.ts';
import { recordOfColumns } from './csv-columns.ts';
import { principalOf } from '../request-parts.ts';
import { requestEntityManager } from '../../db/request-context.ts';
import { signalCommit } from '../../db/commit-signal.ts';
import { sendDocument } from '../../http/send.ts';

export function batchHandlers(resource: AnyResource, maxRecords: number) {
  return {
    async batch(req: Request, res: Response): Promise<void> {
      // CSV rows are flat, keyed by column: each becomes the record its columns name.
      const body = req.is('text/csv') ? (req.body as Array<Record<string, string>>)
        .map((row) => recordOfColumns(resource, row)) : req.body as unknown[];
      const { records, problems } = await batchRecords(resource, body, maxRecords);
      const principal = principalOf(res);
      const { owner } = resource;
      // A record the schema refused has no values; its references are not looked up.
      const data = records.map((record, index) => (problems.has(index + 1) ? undefined
        : { ...resource.values(record), ...owner && { [owner.property]: principal.subject } }));
      const written = await createBatch(requestEntityManager(req), resource, records, data, problems,
        principal.username);
      signalCommit();
      await sendDocument(res, 201, 'created',
        written.map(({ id, version }) => ({ [resource.idProperty]: id, version })));
    },
  };
}
