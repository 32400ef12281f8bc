// Turns `text/xml` and `application/xml` bodies into the same values as JSON bodies, for the validator to check.
import type { Request } from 'express';
import { BadRequest, UnsupportedMediaType } from '../../errors/app-errors.ts';
import { parseXml } from './xml-document.ts';
import { recordSchema, requestBodySchema } from './xml-schema.ts';
import { operationOf } from '../../contract/resolution.ts';
import { xmlListToValue, xmlToValue, type Reviver } from './xml-to-value.ts';

export const xmlMediaTypes = ['text/xml', 'application/xml'];

const utf8 = /^utf-?8$/i;
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)/i;
// XML 1.0 §2.8/§4.3.3: the declaration comes first, `encoding` after `version`.
const declaredEncoding = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** How much of a document's start holds its XML declaration, if it has one. */
export const headLength = 256;

/** A `charset` parameter other than UTF-8 is 415 (RFC 7303 §3.2). */
export function refuseOtherCharset(req: Request): void {
  const charset = charsetParameter.exec(req.get('Content-Type') ?? '')?.[1];
  if (charset !== undefined && !utf8.test(charset)) throw new UnsupportedMediaType('error.xmlCharset');
}

/** An `encoding` declared other than UTF-8 in the document's first `headLength` characters is 415. */
export function refuseOtherEncoding(head: string): void {
  const encoding = declaredEncoding.exec(head)?.[1];
  if (encoding !== undefined && !utf8.test(encoding)) throw new UnsupportedMediaType('error.xmlCharset');
}

/**
 * The value of an XML body (`bytes`, read by src/http/body-parsers.ts), shaped by the operation's request schema.
 * UTF-8 only (RFC 7303 §3.2; UTF-8 is XML's default): another `charset` parameter or `encoding` declaration is 415,
 * bytes that are not UTF-8 are 400 (never silently stored as mojibake). `reviver` is the JSON one, so a number's text
 * means the same in both formats.
 */
export function xmlToObject(req: Request, mediaType: string, bytes: Buffer, reviver?: Reviver): unknown {
  refuseOtherCharset(req);
  // The declaration is ASCII in every encoding we could be sent but UTF-16, so it is read before the bytes are decoded.
  refuseOtherEncoding(bytes.subarray(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0,
    headLength).toString('latin1'));
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new BadRequest('error.xmlCharset');
  }
  const operation = operationOf(req)?.contract;
  const schema = requestBodySchema(operation, mediaType);
  const record = recordSchema(operation, mediaType);
  return record ? xmlListToValue(parseXml(text), schema, record, reviver) : xmlToValue(parseXml(text), schema, reviver);
}
