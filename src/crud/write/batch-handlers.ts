// `POST /{resource}/batch`: many creates in one request, all or nothing, answered with the new ids in input order.
import type { Request, Response } from 'express';
import type { AnyResource } from '../resource-descriptor.ts';
import { batchRecords } from './batch-records.ts';
import { createBatch } from './batch-writes.ts';
import { BatchRows } from './batch-rows.ts';
import { principalOf } from '../request-parts.ts';
import { requestEntityManager } from '../../db/request-context.ts';
import { signalCommit } from '../../db/commit-signal.ts';
import { sendLongDocument } from '../../http/send.ts';
import type { BatchRecordTexts } from '../../http/batch-record-texts.ts';

/** Told of each batch's size as its work goes (src/app/import-memory.ts gives its heap back). */
export interface ImportMemory {
  /** A batch of that many records starts its work (a positive change), or has ended it (negative). */
  importing(change: number): void;
  /** A batch's records were read and checked; their rows are about to be made (none is held yet). */
  checked(records: number): void;
  /** A batch's records were dropped, their rows sent: what is left to hold is their ids, for the answer. */
  dropped(records: number): void;
}

const unwatched: ImportMemory = { importing: () => undefined, checked: () => undefined, dropped: () => undefined };

export function batchHandlers(resource: AnyResource, maxRecords: number, memory = unwatched) {
  return {
    async batch(req: Request, res: Response): Promise<void> {
      const size = (req.body as BatchRecordTexts).length;
      memory.importing(size);
      try {
        await importBatch(req, res, size);
      } finally {
        memory.importing(-size);
      }
    },
  };

  async function importBatch(req: Request, res: Response, size: number): Promise<void> {
    // The records are held as texts (src/http/batch-record-texts.ts), each made anew where it is needed, read
    // without the export's read-only fields once checked, and its row is made as the writes take it (docs/api.md).
    const { records, problems } = await batchRecords(resource, req.body as BatchRecordTexts, maxRecords);
    const principal = principalOf(res);
    const { owner } = resource;
    const em = requestEntityManager(req);
    const rows = await BatchRows.of(em, resource, records, problems,
      owner ? { [owner.property]: principal.subject } : {}, () => memory.dropped(size));
    memory.checked(size);
    const ids = await createBatch(em, resource, rows, problems, principal.username);
    signalCommit();
    // A new record's version is 0. Each record's answer is made as its slice is written (never all of them at once).
    await sendLongDocument(res, 201, 'created', ids.length, (index) => ({ [resource.idProperty]: ids[index],
      version: 0 }));
  }
}
