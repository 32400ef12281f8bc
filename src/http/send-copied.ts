// Streams an export whose bytes the database wrote (src/crud/read/copied-export.ts): the service passes them on, with
// its own CSV's line ends, at the client's pace, and spools what a slower client has not taken yet.
import type { Response } from 'express';
import type { CsvColumn } from './csv-columns.ts';
import { csvHeader, csvRepresentation } from './csv-representation.ts';
import { CsvRecordEnds, type RecordEndCell } from './csv-record-ends.ts';
import { SpooledBytes } from './spooled-bytes.ts';
import { responseWrites } from './bounded-writes.ts';
import { attachAsFile, type ListOptions } from './send.ts';
import { flushCompressed } from './compression.ts';

/** An export's bytes as the database writes them: held open until its last bytes are read or it is closed. */
export interface ExportBytes {
  /** The next bytes; undefined after the last. */
  next(): Promise<Buffer | undefined>;
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
 * The database's writing and the client's reading each go at their own pace, through a spool between them. The status
 * and the header row go once the export has begun, before its first row (which a sorted export writes only after
 * sorting every row), so a failure to begin is answered as such; only a query by example that answers 204 when empty
 * (`emptyStatus`) waits for its first rows.
 */
export async function sendCopiedCsv(res: Response, root: string, columns: readonly CsvColumn[],
  open: () => Promise<ExportBytes>, { emptyStatus = 200, ready }: Pick<ListOptions, 'emptyStatus' | 'ready'> = {},
): Promise<void> {
  ready?.catch(() => {});
  const bytes = await open();
  const spool = new SpooledBytes(spoolBounds.memory, spoolBounds.file);
  let giving: Promise<void> | undefined;
  try {
    // null: not read yet.
    const first = emptyStatus === 204 ? await bytes.next() : null;
    await ready;
    if (first === undefined) return void res.status(204).end();
    attachAsFile(res, root, csvRepresentation);
    res.status(200).type(`${csvRepresentation.mediaType}; charset=utf-8`);
    giving = give(bytes, spool, first);
    const writes = responseWrites(res);
    // The header row leaves at once, through a compressor too: the first row may be a sort of every row away.
    if (!writes.write(Buffer.from(csvHeader(columns), 'utf8')) && !await writes.drained()) return;
    flushCompressed(res);
    // A client that leaves while the database has no bytes yet (sorting, or waiting for a lock) ends the export then.
    res.once('close', () => spool.stop());
    for (let piece = await spool.take(); piece !== undefined; piece = await spool.take()) {
      if (!writes.write(piece) && !await writes.drained()) return;
    }
    if (!writes.gone()) res.end();
  } finally {
    spool.stop();
    // Before the giver is awaited: it may be waiting for the database's next bytes, which closing cancels.
    await bytes.close();
    await giving;
    await spool.close();
  }
}

/** Passes the database's bytes into the spool, the rows' line ends made CRLF, until they end or the spool stops. */
async function give(bytes: ExportBytes, spool: SpooledBytes, first: Buffer | null): Promise<void> {
  const ends = new CsvRecordEnds(bytes.lastCell);
  try {
    if (first !== null) await spool.give(ends.rewrite(first));
    for (let next = await bytes.next(); next !== undefined && !spool.stopped; next = await bytes.next()) {
      await spool.give(ends.rewrite(next));
    }
    const rest = ends.rest();
    if (rest.length > 0) await spool.give(rest);
    spool.end();
  } catch (error) {
    spool.end(error);
  }
}
