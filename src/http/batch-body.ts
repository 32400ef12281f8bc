// A batch's body read as its bytes arrive: a JSON array element by element, JSON lines line by line, CSV row by row,
// each record parsed from its own text once that is whole. Neither the body's bytes nor its text is held whole, only
// the records (docs/api.md#whole-data-sets-in-batch-create); the event loop turns between the socket's chunks.
import zlib from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import { BadRequest, UnsupportedMediaType, ValidationFailed, type FieldProblem } from '../errors/app-errors.ts';
import { malformedBody, payloadTooLarge, unsupportedMediaType } from '../errors/refusals.ts';
import { JsonArrayElements } from './json-array-elements.ts';
import { JsonLineRecords } from './json-lines.ts';
import { CsvRows, type CsvRow } from './csv-rows.ts';
import { jsonOfText } from './json-text.ts';
import { checkedAsRead, illFormedText } from './well-formed-text.ts';

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
 * Reads a batch body of `mediaType` (a JSON array, JSON lines, CSV) into the array of its records, each checked for
 * ill-formed text as it comes (src/http/well-formed-text.ts); an XML one into its bytes, for its parser. A CSV row
 * becomes its record at once (`recordOfRow`), so that the rows are never held beside the records. The 413 past
 * `limit` bytes (after Content-Encoding) comes as soon as they are past, the rest of the body read off and dropped.
 */
export function readBatchBody(req: Request, mediaType: string, limit: number,
  recordOfRow: (row: CsvRow) => unknown = (row) => row): Promise<unknown> {
  const records: unknown[] = [];
  const problems: FieldProblem[] = [];
  const record = (value: unknown, position: number) => {
    illFormedText(value, [String(position - 1)], problems);
    records.push(value);
  };
  const text: TextReader | undefined = mediaType === 'application/x-ndjson' ? new JsonLineRecords(record)
    : mediaType === 'text/csv' ? new CsvRows((row, position) => record(recordOfRow(row), position))
      : mediaType === 'application/json' || mediaType.endsWith('+json') ? jsonReader(record) : undefined;
  const bytes: Buffer[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  return new Promise((resolve, reject) => {
    let source: Readable | Transform = req;
    let received = 0;
    let failed = false;
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
    if (text && charset !== undefined && !/^utf-?8$/i.test(charset)) return fail(new UnsupportedMediaType('error.utf8'));
    if (Number(req.headers['content-length']) > limit) return fail(payloadTooLarge());
    try {
      source = decoded(req);
    } catch (error) {
      return fail(error);
    }
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return fail(payloadTooLarge());
      if (!text) {
        bytes.push(chunk);
        return;
      }
      let piece: string;
      try {
        piece = utf8.decode(chunk, { stream: true });
      } catch {
        return fail(new BadRequest('error.utf8'));
      }
      try {
        text.push(piece);
      } catch (error) {
        fail(error);
      }
    });
    // A body that is not what its Content-Encoding says, or a client gone half-way.
    source.once('error', () => fail(malformedBody()));
    req.once('close', () => { if (!req.readableEnded) fail(malformedBody()); });
    source.once('end', () => {
      if (failed) return;
      void (async () => {
        if (!text) return Buffer.concat(bytes);
        let last: string;
        try {
          last = utf8.decode();
        } catch {
          throw new BadRequest('error.utf8');
        }
        if (last) text.push(last);
        const value = await text.finish();
        if (value !== undefined) return value;
        if (problems.length > 0) throw new ValidationFailed(problems);
        checkedAsRead(records);
        return records;
      })().then(resolve, (error: unknown) => { failed = true; reject(error); });
    });
  });
}

/** The batch's reader as a step: `req.body` is the records (or an XML body's bytes) once it has run. */
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
