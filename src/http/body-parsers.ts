// Reads request bodies by Content-Type (JSON, XML) into values for the validator; anything else is left for it to
// answer 415. The media type is matched once per request, the bytes read once, then decoded by their format.
import express, { type Request, type RequestHandler } from 'express';
import { BadRequest, UnsupportedMediaType } from '../errors/app-errors.ts';
import { malformedBody } from '../errors/refusals.ts';
import { xmlMediaTypes, xmlToObject } from './xml/xml-body-parser.ts';
import { unrounded } from './unrounded-numbers.ts';
import { wellFormedText } from './well-formed-text.ts';
import { batchBody } from './batch-body.ts';
import type { CsvRow } from './csv-rows.ts';
import { jsonOfText } from './json-text.ts';

const jsonTypes = ['application/json', 'application/*+json'];
const bodyTypes = [...jsonTypes, ...xmlMediaTypes];
/** A batch's bodies besides those: JSON lines, CSV (all read as they arrive, src/http/batch-body.ts). */
const batchTypes = ['application/x-ndjson', 'text/csv', ...bodyTypes];
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** On the request under a symbol, not in a `WeakMap` (src/contract/resolution.ts says why). */
const matchedType = Symbol('body media type');
type Typed = Request & { [matchedType]?: string | false };

/** The body's media type when it is one of `types` (`req.is`, so as express matches it), else false; matched once. */
function mediaTypeOf(req: Request, types: string[]): string | false {
  return (req as Typed)[matchedType] ??= req.is(types) || false;
}

/**
 * RFC 8259 §8.1: JSON exchanged between systems is UTF-8. Another declared charset is 415, bytes that are not UTF-8
 * are 400 rather than silently decoded to U+FFFD. As body-parser's strict JSON: a leading byte order mark is dropped,
 * an empty body is `{}`, and anything but an object or an array at the top is 400. A batch's JSON lines and CSV are
 * text alike (UTF-8, RFC 7464 and RFC 4180 §4's charset), read by src/http/batch-body.ts as they arrive.
 */
function jsonValue(req: Request, bytes: Buffer): unknown {
  const charset = charsetParameter.exec(req.get('Content-Type') ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new UnsupportedMediaType('error.utf8');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BadRequest('error.utf8');
  }
  return jsonOfText(text);
}

/**
 * RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has a body of length zero, which no
 * reader reads (it left no body at all: a 500 in query by example). It is read as the empty body it is: `{}` for
 * JSON, for XML an empty document, which XML 1.0 §2.1 says is not well-formed (a root element is required): 400.
 */
function emptyBody(req: Request): unknown {
  // `req.is` says nothing of a request without a body: the media type is read from the header itself.
  const mediaType = req.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType)) return {};
  if (xmlMediaTypes.includes(mediaType)) throw malformedBody();
  return undefined;
}

/**
 * `beforeDecoding` runs once the bytes are read, before any work on them (src/http/body-slots.ts takes a slot there).
 * A batch's parsers (`batch`) read its records as the bytes arrive (JSON, JSON lines, CSV: each row made its record by
 * `recordOfRow`, XML record by record), so the work on them is spread over the chunks, and its slot bounds the checks
 * that follow.
 */
export function bodyParsers(limit: string, beforeDecoding: RequestHandler[] = [], batch = false,
  recordOfRow?: (row: CsvRow) => unknown): RequestHandler[] {
  const types = batch ? batchTypes : bodyTypes;
  // body-parser's reader: the size limit (413), Content-Encoding inflated (a body that is not what it says: 400).
  const read = batch ? batchBody(limit, (req) => mediaTypeOf(req, types), recordOfRow)
    : express.raw({ type: (req) => mediaTypeOf(req as Request, types) !== false, limit });
  const toValue: RequestHandler = (req, _res, next) => {
    if (Buffer.isBuffer(req.body)) {
      const mediaType = mediaTypeOf(req, types) as string;
      req.body = xmlMediaTypes.includes(mediaType) ? xmlToObject(req, mediaType, req.body, unrounded)
        : jsonValue(req, req.body);
    } else if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH')) {
      req.body = emptyBody(req);
    }
    next();
  };
  return [read, ...beforeDecoding, toValue, wellFormedText];
}
