// Parses request bodies by Content-Type (JSON, XML); anything else is left for the validator to answer 415.
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { BadRequest, UnsupportedMediaType } from '../errors/app-errors.ts';
import { xmlBodyParser, xmlMediaTypes } from './xml/xml-body-parser.ts';
import { unrounded } from './unrounded-numbers.ts';
import { wellFormedText } from './well-formed-text.ts';

const jsonTypes = ['application/json', 'application/*+json'];
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * RFC 8259 §8.1: JSON exchanged between systems is UTF-8. Another declared charset is 415 (body-parser would decode
 * UTF-16 and answer 400), and bytes that are not UTF-8 are 400 rather than silently decoded to U+FFFD.
 */
const jsonCharset: RequestHandler = (req, _res, next) => {
  const charset = req.is(jsonTypes) ? charsetParameter.exec(req.get('Content-Type') ?? '')?.[1] : undefined;
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new UnsupportedMediaType('error.utf8');
  next();
};

/**
 * RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has a body of length zero. The body
 * parsers skip such a request and leave no body at all (a 500 in query by example): it is read as the empty body it
 * is, by the same rule as an empty one: `{}` for JSON (body-parser's rule), for XML an empty document (not
 * well-formed: a 400).
 */
const emptyWithoutFraming: RequestHandler = (req, _res, next) => {
  if ((req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') && req.body === undefined) {
    // `req.is` says nothing of a request without a body: the media type is read from the header itself.
    const mediaType = req.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType)) req.body = {};
    // XML 1.0 §2.1: a document has a root element; an empty one is not well-formed.
    else if (xmlMediaTypes.includes(mediaType)) throw new BadRequest('error.malformedBody');
  }
  next();
};

function requireUtf8(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) throw new BadRequest('error.utf8');
}

export function bodyParsers(limit: string): RequestHandler[] {
  const xml = xmlBodyParser(limit, unrounded);
  return [
    jsonCharset,
    express.json({ limit, type: jsonTypes, reviver: unrounded, verify: requireUtf8 }),
    xml.read,
    emptyWithoutFraming,
    xml.toObject,
    wellFormedText,
  ];
}
