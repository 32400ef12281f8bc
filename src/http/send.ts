// Writes bodies in the negotiated representation, streaming lists with back-pressure.
import type { Response } from 'express';
import { listRepresentationOf, representationOf } from './negotiation.ts';
import { responseWrites } from './bounded-writes.ts';
import { operationOf } from '../contract/resolution.ts';
import { jsonRepresentation, type Representation } from './representation.ts';
import { setImmediate } from 'node:timers/promises';
import type { Schema } from '../contract/document.ts';
import { csvColumns, mapPaths, type CsvColumn, type MapKeys } from './csv-columns.ts';
import { csvRepresentation } from './csv-representation.ts';

/** An answer as it is about to leave: what an Idempotency-Key keeps to replay (src/http/idempotency-key.ts). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const holds = new WeakMap<Response, (answer: Answer) => Promise<void>>();

/** `hold` sees the answer of this request, and the answer leaves only once it has settled. */
export function holdAnswer(res: Response, hold: (answer: Answer) => Promise<void>): void {
  holds.set(res, hold);
}

async function release(res: Response, status: number, body: string | null): Promise<void> {
  const hold = holds.get(res);
  if (!hold) return;
  holds.delete(res);
  const headers = Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
  await hold({ status, headers, body });
}

/** Each representation's Content-Type, made once. */
const documentTypes = new Map<Representation, string>();

function documentType(representation: Representation): string {
  let type = documentTypes.get(representation);
  if (type === undefined) documentTypes.set(representation, type = `${representation.mediaType}; charset=utf-8`);
  return type;
}

/**
 * The document as express's `res.send` would answer it, without its work per answer that has nothing to do here:
 * the Content-Type's charset parsed and written again, ETags (off: src/app/app.ts) and freshness (the handlers answer
 * conditional requests themselves, src/crud/preconditions.ts). Node leaves the body out of an answer to HEAD.
 */
export async function sendDocument(res: Response, status: number, root: string, body: unknown): Promise<void> {
  const representation = representationOf(res);
  const text = representation.document(root, body);
  res.statusCode = status;
  res.setHeader('Content-Type', documentType(representation));
  // Most answers have no hold: no promise and no turn of the event loop's microtasks for them.
  if (holds.has(res)) await release(res, status, text);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Items of a long document made into JSON between two turns of the event loop. */
const itemsPerTurn = 10_000;

/**
 * A document of a long list of `count` small items (a batch's new ids), as `sendDocument` writes it; each item made by
 * `itemAt` only as its slice is written, so that the list is never held as objects. In JSON a slice of items at a
 * time is made into its text with the event loop turning between, so that no one turn holds it for the whole list,
 * and the texts are sent one after the other as the client takes them: the document is never one string, nor one
 * buffer (its bytes would be both at once), unless an Idempotency-Key keeps it.
 */
export async function sendLongDocument(res: Response, status: number, root: string, count: number,
  itemAt: (index: number) => unknown): Promise<void> {
  const representation = representationOf(res);
  if (representation.mediaType !== jsonRepresentation.mediaType) {
    return sendDocument(res, status, root, Array.from({ length: count }, (_, index) => itemAt(index)));
  }
  // An array's JSON without its brackets: the slices joined by commas are the whole array's JSON.
  const parts: string[] = [];
  let bytes = 2;
  for (let start = 0; start < count; start += itemsPerTurn) {
    if (start > 0) await setImmediate();
    const slice = Array.from({ length: Math.min(itemsPerTurn, count - start) }, (_, index) => itemAt(start + index));
    const part = `${start > 0 ? ',' : ''}${JSON.stringify(slice).slice(1, -1)}`;
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  res.statusCode = status;
  res.setHeader('Content-Type', documentType(representation));
  if (holds.has(res)) await release(res, status, `[${parts.join('')}]`);
  res.setHeader('Content-Length', bytes);
  const writes = responseWrites(res);
  writes.write('[');
  for (const [index, part] of parts.entries()) {
    if (!writes.write(part) && !await writes.drained()) return;
    // Sent: no longer held.
    parts[index] = '';
  }
  res.end(']');
}

/** An answer without a body (a create's 201, an update's 204). */
export async function sendEmpty(res: Response, status: number): Promise<void> {
  res.status(status);
  // A create's 201 without a body says so by its length (Content-Length: 0), as HTTP/1.1 clients expect.
  if (status !== 204) res.setHeader('Content-Length', '0');
  if (holds.has(res)) await release(res, status, null);
  res.end();
}

export interface ListOptions {
  /** 204: an empty result is 204 with no body (query by example); 200 (the default): an empty list. */
  emptyStatus?: 200 | 204;
  /** The XML element around the items. */
  collection?: string;
  /** Settles before the answer's status and headers are set: a count run beside the reading of the first rows. */
  ready?: Promise<unknown>;
  /** The keys of the rows' maps (a vessel's languages), asked only by a format with a column per key (CSV). */
  mapKeys?: (paths: readonly string[]) => Promise<MapKeys>;
}

/** The operation's row schema: the items of its JSON answer, which every format of its list writes. */
function rowSchema(res: Response): Schema | undefined {
  const answer = operationOf(res.req)?.contract.responses?.['200'] as
    { content?: Record<string, { schema?: Schema }> } | undefined;
  return answer?.content?.['application/json']?.schema?.items as Schema | undefined;
}

/** With `?download=true` an export is a file (RFC 6266), named after the collection and the moment. */
export function attachAsFile(res: Response, root: string, representation: Representation): void {
  if (!representation.extension || (res.req.query.download as unknown) !== true) return;
  const moment = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  res.set('Content-Disposition', `attachment; filename="${root}-${moment}.${representation.extension}"`);
}

/**
 * The writer of this list: in CSV one for the row schema's columns (its maps' keys asked first); a download's file
 * named as `sighting-20261129T031500Z.csv`.
 */
async function listWriter(res: Response, root: string, mapKeys: ListOptions['mapKeys']): Promise<Representation> {
  const representation = listRepresentationOf(res);
  attachAsFile(res, root, representation);
  const schema = representation.forList && rowSchema(res);
  if (!schema) return representation;
  const paths = mapPaths(schema);
  const keys = paths.length > 0 && mapKeys ? await mapKeys(paths) : {};
  return representation.forList!(csvColumns(schema, keys));
}

/** A CSV list's columns where its rows hold no map (whose keys are columns too); undefined for any other list. */
export function plainCsvColumns(res: Response): CsvColumn[] | undefined {
  if (listRepresentationOf(res).mediaType !== csvRepresentation.mediaType) return undefined;
  const schema = rowSchema(res);
  return schema && mapPaths(schema).length === 0 ? csvColumns(schema, {}) : undefined;
}

/**
 * Fewer items than any streamed read's full batch (a page of 50 first, src/crud/read/row-stream.ts): such a batch is
 * the last.
 */
const shortBatch = 50;

/** A chunk of a streamed list as UTF-8 bytes, the answer's charset. */
const encoded = (text: string): Buffer => Buffer.from(text, 'utf8');

/**
 * Streams `batches` of items as a list (in XML, `root` elements inside a `collection` element). Memory stays bounded
 * by what the iterator holds, not by the result's size. However the answer ends (complete, the client gone or cut
 * off for not reading, an error), the iterator is closed, which closes the database cursor it reads and returns its
 * connection to the pool: every stream has a client that leaves. A list that ends within a short first batch (a query
 * by example for a rare word) is sent whole, as a page is.
 */
export async function sendList(
  res: Response, root: string, batches: AsyncIterable<readonly unknown[]> | readonly (readonly unknown[])[],
  { emptyStatus = 200, collection = 'collection', ready, mapKeys }: ListOptions = {},
): Promise<void> {
  if (Array.isArray(batches)) {
    await ready;
    const whole = batches as readonly (readonly unknown[])[];
    // A page is one batch: flattening copies each item into a new array through V8's slow path.
    const items = whole.length === 1 ? whole[0]! : whole.flat();
    if (items.length === 0 && emptyStatus === 204) return void res.status(204).end();
    return sendWhole(res, root, items, collection, await listWriter(res, root, mapKeys));
  }
  const iterator = (batches as AsyncIterable<readonly unknown[]>)[Symbol.asyncIterator]();
  // Awaited below, once the first rows are in; should reading them fail first, its failure is the one answered.
  ready?.catch(() => {});
  let peeked: IteratorResult<readonly unknown[]> | undefined;
  const advance = () => {
    const taken = peeked ?? iterator.next();
    peeked = undefined;
    return taken;
  };
  try {
    let next = await iterator.next();
    while (!next.done && next.value.length === 0) next = await iterator.next();
    await ready;
    if (next.done && emptyStatus === 204) {
      res.status(204).end();
      return;
    }
    const representation = await listWriter(res, root, mapKeys);
    // A short first batch is the whole list (the reads' batches are a page or more): asking for the next costs no
    // wait then, and a whole answer leaves as a page does, in one write with its length, not compressed under 1 KB.
    const firstItems = next.done ? [] : next.value;
    if (firstItems.length < shortBatch) {
      const following = next.done ? next : await iterator.next();
      if (following.done) return sendWhole(res, root, firstItems, collection, representation);
      peeked = following;
    }
    const writes = responseWrites(res);
    res.status(200).type(`${representation.mediaType}; charset=utf-8`);
    // Items are gathered into chunks of about 64 KiB: one write per item would cost a syscall each. The first batch
    // leaves at once, whatever its size: the client has its first rows while the next are read. Each chunk is
    // encoded once and written as bytes (`encoded`): a text written as it is would be scanned twice, for its chunk's
    // length and then to encode it.
    let chunk = representation.listOpen(collection);
    let first = true;
    for (let batches = 0; !next.done; next = await advance(), batches++) {
      if (writes.gone()) return;
      for (const item of next.value) {
        chunk += representation.listItem(root, item, first);
        first = false;
        if (chunk.length < 65536) continue;
        if (!writes.write(encoded(chunk)) && !await writes.drained()) return;
        chunk = '';
      }
      if (batches > 0 || chunk === '') continue;
      if (!writes.write(encoded(chunk)) && !await writes.drained()) return;
      chunk = '';
    }
    // The last rows go through the bounded writes too: ended with them, a client that stopped reading would hold
    // the answer (and the request in flight) with no stall bound to cut it off.
    if (!writes.write(encoded(chunk + representation.listClose(collection))) && !await writes.drained()) return;
    res.end();
  } finally {
    await iterator.return?.();
  }
}

/**
 * A list already in memory (a page) as one body with its length, like a document: one write, where the streamed
 * writes' chunked framing and their end cost a write and a syscall more.
 */
function sendWhole(
  res: Response, root: string, items: readonly unknown[], collection: string, representation: Representation,
): void {
  let text = representation.wholeList?.(items);
  if (text === undefined) {
    text = representation.listOpen(collection);
    for (let index = 0; index < items.length; index++) text += representation.listItem(root, items[index], index === 0);
    text += representation.listClose(collection);
  }
  // As a document is sent (sendDocument): the type made once, the length counted, no res.send.
  res.statusCode = 200;
  res.setHeader('Content-Type', documentType(representation));
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
