// `POST /{resource}/batch`: many creates in one request, all or nothing, answered with the new ids in input order.
import type { Request, Response } from 'express';
import type { AnyResource } from '../resource-descriptor.ts';
import { batchRecords } from './batch-records.ts';
import { createBatch } from './batch-writes.ts';
import { BatchRows } from './batch-rows.ts';
import { recordOfColumns } from './csv-columns.ts';
import { principalOf } from '../request-parts.ts';
import { requestEntityManager } from '../../db/request-context.ts';
import { signalCommit } from '../../db/commit-signal.ts';
import { sendDocument } from '../../http/send.ts';

/** `importing` is told the records of each batch when its work starts (a positive change) and ends (negative). */
export function batchHandlers(resource: AnyResource, maxRecords: number,
  importing: (change: number) => void = () => undefined) {
  return {
    async batch(req: Request, res: Response): Promise<void> {
      const size = (req.body as unknown[]).length;
      importing(size);
      try {
        await importBatch(req, res);
      } finally {
        importing(-size);
      }
    },
  };

  async function importBatch(req: Request, res: Response): Promise<void> {
    // CSV rows are flat, keyed by column: each becomes the record its columns name.
    const toRecord = req.is('text/csv') ? (row: Record<string, string>) => recordOfColumns(resource, row)
      : undefined;
    // Each checked record takes its body's place; its row is made as the writes take it (docs/api.md).
    const { records, problems } = await batchRecords(resource, req.body as unknown[], maxRecords, toRecord);
    const principal = principalOf(res);
    const { owner } = resource;
    const em = requestEntityManager(req);
    const rows = await BatchRows.of(em, resource, records, problems,
      owner ? { [owner.property]: principal.subject } : {});
    const written = await createBatch(em, resource, rows, problems, principal.username);
    signalCommit();
    await sendDocument(res, 201, 'created',
      written.map(({ id, version }) => ({ [resource.idProperty]: id, version })));
  }
}
