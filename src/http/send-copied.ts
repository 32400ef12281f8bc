// Streams an export whose bytes the database wrote (src/crud/read/copied-export.ts): the service passes them on, with
// its own CSV's line ends, at the client's pace, and spools what a slower client has not taken yet.
import type { Response } from 'express';
import type { CsvColumn } from './csv-columns.ts';
import { csvHeader, csvRepresentation } from './csv-representation.ts';
import { CsvRecordEnds, type RecordEndCell } from './csv-record-ends.ts';
import { SpooledBytes } from './spooled-bytes.ts';
import { responseWrites } from './bounded-writes.ts';
import { attachAsFile, type ListOptions } from './send.ts';

/** An export's bytes as the database writes them: held open until its last bytes are read or it is closed. */
export interface ExportBytes {
  /** The first bytes; undefined when no row matched. */
  first: Buffer | undefined;
  rest: AsyncIterator<Buffer>;
  /** The records' last cell, when the database wrote it in a shape of its own for the service to finish. */
  lastCell?: RecordEndCell;
  /** Lets the database go (early: its statement is cancelled); each sender calls it once, however it ends. */
  close(): Promise<void>;
}

/**
 * What a client has not taken yet waits in memory up to the first bound, then in a temporary file up to the second:
 * a client that pauses for seconds holds no connection; one that takes nothing for STREAM_WRITE_TIMEOUT_MS is cut off.
 */
const spoolBounds = { memory: 1 << 20, file: 256 << 20 };

/**
 * Sends `open`'s CSV bytes as the list's answer: the header row for `columns`, then the rows, each ended by CRLF.
 * The database's writing and the client's reading each go at their own pace, through a spool between them; the first
 * bytes are in before the status is set, so a failure to begin is answered as such, and an empty query by example is
 * a 204 (`emptyStatus`).
 */
export async function sendCopiedCsv(res: Response, root: string, columns: readonly CsvColumn[],
  open: () => Promise<ExportBytes>, { emptyStatus = 200, ready }: Pick<ListOptions, 'emptyStatus' | 'ready'> = {},
): Promise<void> {
  ready?.catch(() => {});
  const bytes = await open();
  const spool = new SpooledBytes(spoolBounds.memory, spoolBounds.file);
  let giving: Promise<void> | undefined;
  try {
    await ready;
    if (bytes.first === undefined && emptyStatus === 204) return void res.status(204).end();
    attachAsFile(res, root, csvRepresentation);
    res.status(200).type(`${csvRepresentation.mediaType}; charset=utf-8`);
    giving = give(bytes, spool, Buffer.from(csvHeader(columns), 'utf8'));
    const writes = responseWrites(res);
    for (let piece = await spool.take(); piece !== undefined; piece = await spool.take()) {
      if (!writes.write(piece) && !await writes.drained()) return;
    }
    res.end();
  } finally {
    spool.stop();
    await giving;
    await bytes.close();
    await spool.close();
  }
}

/** Passes the database's bytes into the spool, the rows' line ends made CRLF, until they end or the spool stops. */
async function give(bytes: ExportBytes, spool: SpooledBytes, header: Buffer): Promise<void> {
  const ends = new CsvRecordEnds(bytes.lastCell);
  try {
    await spool.give(header);
    if (bytes.first !== undefined) await spool.give(ends.rewrite(bytes.first));
    for (let next = await bytes.rest.next(); !next.done && !spool.stopped; next = await bytes.rest.next()) {
      await spool.give(ends.rewrite(next.value));
    }
    const rest = ends.rest();
    if (rest.length > 0) await spool.give(rest);
    spool.end();
  } catch (error) {
    spool.end(error);
  }
}
