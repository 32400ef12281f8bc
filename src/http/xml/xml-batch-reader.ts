// An XML batch body (`<collection>`) read as its text arrives: each record cut out (xml-list-records.ts), parsed by
// xml2js with the limits of every XML body (xml-document.ts: markup declarations and undeclared entities refused,
// depth bounded) and typed as a single create's XML body is; only the record under way is held as text.
import type { Request } from 'express';
import { AppError, BadRequest, BatchRejected, ValidationFailed } from '../../errors/app-errors.ts';
import { operationOf } from '../../contract/resolution.ts';
import { parseXml } from './xml-document.ts';
import { XmlListRecords } from './xml-list-records.ts';
import { recordSchema, requestBodySchema } from './xml-schema.ts';
import { xmlRecordToValue, type Reviver } from './xml-to-value.ts';
import { headLength, refuseOtherEncoding } from './xml-body-parser.ts';

/** Refusals of the whole document, whichever record they show in: its safety limits. */
const wholeBody = new Set(['error.xmlForbidden', 'error.bodyTooDeep']);

/**
 * A record that cannot be read (not well-formed, not the record's element, text beside elements) is a 400 naming its
 * position, as a JSON line is; a refusal of the body's safety limits stays the whole body's.
 */
function namedByPosition(error: unknown, position: number): unknown {
  if (error instanceof ValidationFailed) {
    return new BatchRejected(error.problems.map((problem) => ({ record: position, ...problem })));
  }
  if (error instanceof BadRequest && !wholeBody.has(error.key)) {
    return new BatchRejected([{ record: position, field: 'body', key: error.key, params: error.params }]);
  }
  return error;
}

/** The reader of an XML batch body of `mediaType`, each record as a value to `record` with its 1-based position. */
export function xmlBatchReader(req: Request, mediaType: string, record: (value: unknown, position: number) => void,
  reviver?: Reviver): { push(piece: string): void; finish(): undefined } {
  const operation = operationOf(req)?.contract;
  const list = requestBodySchema(operation, mediaType);
  const schema = recordSchema(operation, mediaType);
  if (!schema) throw new Error('a batch body has its record schema (x-record-schema)');
  let open = '';
  let close = '';
  let head: string | undefined = '';
  const records = new XmlListRecords((startTag, name) => {
    const expected = list?.xml?.name;
    if (expected && name !== expected) throw new BadRequest('error.xmlRoot', { name: expected });
    open = startTag.replace(/\/\s*>$/, '>');
    close = `</${name}>`;
    // The root's start tag checked once as the document it begins: its attributes, namespaces and references.
    parseXml(`${open}${close}`);
  }, (text, position) => {
    let value: unknown;
    try {
      const root = parseXml(`${open}${text}${close}`);
      value = xmlRecordToValue(root.children[0]!, schema, reviver);
    } catch (error) {
      throw error instanceof AppError ? namedByPosition(error, position) : error;
    }
    record(value, position);
  });
  /** The declaration's encoding is checked once the head holds it, before anything after it is read. */
  const checkHead = (piece: string, last: boolean) => {
    if (head === undefined) return;
    head += piece;
    if (last || head.length >= headLength || head.includes('?>')) {
      refuseOtherEncoding(head.slice(0, headLength));
      head = undefined;
    }
  };
  return {
    push(piece) {
      checkHead(piece, false);
      records.push(piece);
    },
    finish() {
      checkHead('', true);
      records.finish();
      return undefined;
    },
  };
}
