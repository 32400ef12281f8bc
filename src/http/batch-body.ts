// A batch's body read as its bytes arrive: a JSON array element by element, JSON lines line by line, CSV row by row,
// an XML list record by record, each record parsed from its own text once that is whole. Neither the body's bytes nor
// its text is held whole, only the records, each as one compact text (src/http/batch-record-texts.ts;
// docs/api.md#whole-data-sets-in-batch-create); the event loop turns between the socket's chunks.
import zlib from 'node:zlib';
import { setImmediate } from 'node:timers/promises';
import type { Readable, Transform } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import type { MessageKey } from '../i18n/messages.ts';
import { BadRequest, UnsupportedMediaType, ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { malformedBody, payloadTooLarge, unsupportedMediaType } from '../errors/refusals.ts';
import { JsonArrayElements } from './json-array-elements.ts';
import { JsonLineRecords } from './json-lines.ts';
import { CsvRows, type CsvRow } from './csv-rows.ts';
import { jsonOfText } from './json-text.ts';
import { checkedAsRead, illFormedText } from './well-formed-text.ts';
import { BatchRecordTexts } from './batch-record-texts.ts';
import { xmlMediaTypes, refuseOtherCharset } from './xml/xml-body-parser.ts';
import { xmlBatchReader } from './xml/xml-batch-reader.ts';
import { unrounded } from './unrounded-numbers.ts';

/** What reads one format's text: its pieces in order; then, at its end, the body's value if not its records. */
interface TextReader {
  push(piece: string): void;
  finish(): unknown;
  stop?(): void;
}

const units = { b: 1, kb: 1024, mb: 1024 * 1024 } as const;

/** A limit as the settings spell it (`64mb`, body-parser's units: 1 kb is 1,024 bytes) in bytes. */
export function bytesOf(limit: string): number {
  const [, count, unit] = /^(\d+)(b|kb|mb)$/.exec(limit) ?? [];
  return Number(count) * units[(unit ?? 'b') as keyof typeof units];
}

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** The bytes after their Content-Encoding (body-parser's codings; another is 415), or the request itself. */
function decoded(req: Request): Readable | Transform {
  const coding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const inflate = coding === 'identity' ? undefined : coding === 'gzip' ? zlib.createGunzip()
    : coding === 'deflate' ? zlib.createInflate() : coding === 'br' ? zlib.createBrotliDecompress()
      : coding === 'zstd' && 'createZstdDecompress' in zlib ? zlib.createZstdDecompress() : null;
  if (inflate === null) throw unsupportedMediaType();
  return inflate ? req.pipe(inflate) : req;
}

/** Reads the rest of the request and drops it, so that the answer goes out on a connection that can carry on. */
function drain(req: Request, then: () => void): void {
  if (req.readableEnded || req.destroyed) {
    then();
    return;
  }
  let done = false;
  const once = () => {
    if (!done) then();
    done = true;
  };
  req.once('end', once).once('close', once).resume();
}

/**
 * How much text is parsed in one turn of the event loop: 2,048 characters are some 10 XML records or 25 CSV rows,
 * under a millisecond of work, so that a read of another request waits behind no more than that (docs/benchmarks.md,
 * "a whole data set's memory").
 */
const sliceLength = 2048;

/**
 * The piece in slices of `sliceLength`, none ending between the two halves of a surrogate pair: csv-parse encodes each
 * slice as UTF-8 on its own.
 */
function* slices(piece: string): Generator<string> {
  for (let start = 0; start < piece.length;) {
    let end = Math.min(start + sliceLength, piece.length);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    yield piece.slice(start, end);
    start = end;
  }
}

/** A JSON body: an array read element by element; anything else (an object, not JSON) read whole as before. */
function jsonReader(record: (value: unknown, position: number) => void): TextReader {
  let elements: JsonArrayElements | undefined;
  let whole = '';
  return {
    push(piece) {
      if (elements) return elements.push(piece);
      whole += piece;
      const first = /[^ \t\n\r]/.exec(whole)?.[0];
      if (first === '[') {
        elements = new JsonArrayElements(record);
        elements.push(whole);
        whole = '';
      }
    },
    finish() {
      if (!elements) return jsonOfText(whole);
      elements.finish();
      return undefined;
    },
  };
}

/**
 * Reads a batch body of `mediaType` (a JSON array, JSON lines, CSV, an XML list) into its records, held as texts
 * (`BatchRecordTexts`), each checked for ill-formed text as it comes (src/http/well-formed-text.ts). A CSV row is made
 * its record (`recordOfRow`) to be checked, then held as its cells. The 413 past `limit` bytes (after
 * Content-Encoding) comes as soon as they are past, the rest of the body read off and dropped.
 */
export function readBatchBody(req: Request, mediaType: string, limit: number,
  recordOfRow: (row: CsvRow) => unknown = (row) => row): Promise<unknown> {
  // Only a CSV body's records are rows: a JSON array's element `[]` is the value it is.
  const records = new BatchRecordTexts(mediaType === 'text/csv' ? recordOfRow : undefined);
  const problems: FieldProblem[] = [];
  const checked = (value: unknown, position: number) => illFormedText(value, [String(position - 1)], problems);
  const record = (value: unknown, position: number) => {
    checked(value, position);
    records.add(value);
  };
  const row = (cells: CsvRow, position: number) => {
    checked(recordOfRow(cells), position);
    records.addRow(cells);
  };
  const xml = xmlMediaTypes.includes(mediaType);
  // XML's own keys for a charset that is not UTF-8 (src/http/xml/xml-body-parser.ts).
  const charsetKey: MessageKey = xml ? 'error.xmlCharset' : 'error.utf8';
  let text: TextReader;
  try {
    if (xml) refuseOtherCharset(req);
    text = mediaType === 'application/x-ndjson' ? new JsonLineRecords(record)
      : mediaType === 'text/csv' ? new CsvRows(row)
        : xml ? xmlBatchReader(req, mediaType, record, unrounded) : jsonReader(record);
  } catch (error) {
    return new Promise((_resolve, reject) => { drain(req, () => reject(error)); });
  }
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  return new Promise((resolve, reject) => {
    let source: Readable | Transform = req;
    let received = 0;
    let failed = false;
    let sliced: Promise<void> = Promise.resolve();
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      text?.stop?.();
      source.removeAllListeners('data');
      if (source !== req) {
        req.unpipe(source as Transform);
        source.destroy();
      }
      drain(req, () => reject(error));
    };
    const charset = charsetParameter.exec(req.get('Content-Type') ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) return fail(new UnsupportedMediaType(charsetKey));
    if (Number(req.headers['content-length']) > limit) return fail(payloadTooLarge());
    try {
      source = decoded(req);
    } catch (error) {
      return fail(error);
    }
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return fail(payloadTooLarge());
      let piece: string;
      try {
        piece = utf8.decode(chunk, { stream: true });
      } catch {
        return fail(new BadRequest(charsetKey));
      }
      if (piece.length <= sliceLength) {
        try {
          text.push(piece);
        } catch (error) {
          fail(error);
        }
        return;
      }
      // A long piece (a socket's read is up to 64 KB) is parsed a slice a turn, the body paused meanwhile.
      // The last piece's slices may still be under way when the body ends: its end waits for them (`sliced`).
      source.pause();
      sliced = (async () => {
        for (const slice of slices(piece)) {
          await setImmediate();
          if (failed) return;
          text.push(slice);
        }
        source.resume();
      })();
      sliced.catch(fail);
    });
    // A body that is not what its Content-Encoding says, or a client gone half-way.
    source.once('error', () => fail(malformedBody()));
    req.once('close', () => { if (!req.readableEnded) fail(malformedBody()); });
    source.once('end', () => {
      if (failed) return;
      void (async () => {
        await sliced;
        if (failed) return;
        let last: string;
        try {
          last = utf8.decode();
        } catch {
          throw new BadRequest(charsetKey);
        }
        if (last) text.push(last);
        const value = await text.finish();
        if (value !== undefined) return value;
        if (problems.length > 0) throw new ValidationFailed(problems);
        checkedAsRead(records);
        return records;
      })().then((value) => { if (!failed) resolve(value); }, (error: unknown) => { failed = true; reject(error); });
    });
  });
}

/** The batch's reader as a step: `req.body` is the records (`BatchRecordTexts`) once it has run. */
export function batchBody(limit: string, mediaTypeOf: (req: Request) => string | false,
  recordOfRow?: (row: CsvRow) => unknown): RequestHandler {
  const bytes = bytesOf(limit);
  return async (req, _res, next) => {
    // RFC 9112 §6.3: neither header, no body.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    const mediaType = mediaTypeOf(req);
    if (mediaType === false) return next();
    req.body = await readBatchBody(req, mediaType, bytes, recordOfRow);
    next();
  };
}

/** A batch's records while the request validator looks at a stand-in of the body in their place. */
const setAside = new WeakMap<Request, BatchRecordTexts>();

/**
 * Before the request validator: what the contract says of a batch body as a whole (an array of at least one record,
 * BatchRecords) is checked on a stand-in of its shape, one record or none; each record is checked by
 * src/crud/write/batch-records.ts as a single create's body, named by its position.
 */
export const batchShapeForValidator: RequestHandler = (req, _res, next) => {
  if (req.body instanceof BatchRecordTexts) {
    setAside.set(req, req.body);
    req.body = req.body.length > 0 ? [{}] : [];
  }
  next();
};

/** After the request validator: the body is the batch's records again. */
export const batchRecordsBack: RequestHandler = (req, _res, next) => {
  const records = setAside.get(req);
  if (records) req.body = records;
  next();
};
