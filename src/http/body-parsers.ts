// Parses request bodies by Content-Type (JSON, XML); anything else is left for the validator to answer 415.
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { BadRequest, UnsupportedMediaType } from '../errors/app-errors.ts';
import { xmlBodyParser } from './xml/xml-body-parser.ts';
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
 * parsers skip such a request and left no body at all (a 500 in query by example); say so, and it is parsed as
 * the empty body it is (`{}` for JSON by body-parser's rule, not well-formed for XML).
 */
const emptyWithoutFraming: RequestHandler = (req, _res, next) => {
  if ((req.method === 'POST' || req.method === 'PUT') && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    req.headers['content-length'] = '0';
  }
  next();
};

function requireUtf8(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) throw new BadRequest('error.utf8');
}

export function bodyParsers(limit: string): RequestHandler[] {
  return [
    emptyWithoutFraming,
    jsonCharset,
    express.json({ limit, type: jsonTypes, reviver: unrounded, verify: requireUtf8 }),
    ...xmlBodyParser(limit, unrounded),
    wellFormedText,
  ];
}
