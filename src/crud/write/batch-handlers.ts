// `POST /{resource}/batch`: many creates in one request, all or nothing, answered with the new ids in input order.
import type { Request, Response } from 'express';
import type { AnyResource } from '../resource-descriptor.ts';
import { batchRecords, turns } from './batch-records.ts';
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
  /** A batch's records were dropped, their rows sent: what is left to hold is their ids, for the answer. */
  dropped(records: number): void;
}

const unwatched: ImportMemory = { importing: () => undefined, dropped: () => undefined };

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
    // The records are held as texts (src/http/batch-record-texts.ts), each made anew where it is needed; a checked
    // record takes its text's place, and its row is made as the writes take it (docs/api.md).
    const { records, problems } = await batchRecords(resource, req.body as BatchRecordTexts, maxRecords);
    const principal = principalOf(res);
    const { owner } = resource;
    const em = requestEntityManager(req);
    const rows = await BatchRows.of(em, resource, records, problems,
      owner ? { [owner.property]: principal.subject } : {}, () => memory.dropped(size));
    const ids = await createBatch(em, resource, rows, problems, principal.username);
    signalCommit();
    // A new record's version is 0. The answer is made in turns of the event loop, as the records were read.
    const turn = turns();
    const created: Array<Record<string, number>> = [];
    for (const [index, id] of ids.entries()) {
      if (index % 1000 === 0) await turn();
      created.push({ [resource.idProperty]: id, version: 0 });
    }
    await sendLongDocument(res, 201, 'created', created);
  }
}
