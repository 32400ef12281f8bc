// Writes bodies in the negotiated representation, streaming lists with back-pressure.
import type { Response } from 'express';
import { representationOf } from './negotiation.ts';

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

export async function sendDocument(res: Response, status: number, root: string, body: unknown): Promise<void> {
  const representation = representationOf(res);
  const text = representation.document(root, body);
  res.status(status).type(`${representation.mediaType}; charset=utf-8`);
  await release(res, status, text);
  res.send(text);
}

/** An answer without a body (a create's 201, an update's 204). */
export async function sendEmpty(res: Response, status: number): Promise<void> {
  res.status(status);
  await release(res, status, null);
  res.end();
}

/**
 * Streams `batches` of items as a list (in XML, `root` elements inside a `collection` element). With `emptyStatus`
 * 204, an empty result is 204 with no body (query by example); otherwise an empty list. Memory stays bounded by what
 * the iterator holds, not by the result's size.
 */
export async function sendList(res: Response, root: string, batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>, emptyStatus: 200 | 204 = 200, collection = 'collection'): Promise<void> {
  const representation = representationOf(res);
  const iterator = Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]();
  let next = await iterator.next();
  while (!next.done && next.value.length === 0) next = await iterator.next();
  if (next.done && emptyStatus === 204) {
    res.status(204).end();
    return;
  }
  res.status(200).type(`${representation.mediaType}; charset=utf-8`);
  // Items are gathered into chunks of about 64 KiB: one write per item would cost a syscall each.
  let chunk = representation.listOpen(collection);
  let first = true;
  for (; !next.done; next = await iterator.next()) {
    for (const item of next.value) {
      chunk += representation.listItem(root, item, first);
      first = false;
      if (chunk.length < 65536) continue;
      if (!res.write(chunk) && !await drained(res)) {
        // The client went away: stop reading, which closes the database cursor the iterator holds.
        await iterator.return?.();
        return;
      }
      chunk = '';
    }
  }
  res.end(chunk + representation.listClose(collection));
}

/** Waits until the socket takes more data (true) or closes (false); a closed socket never drains. */
function drained(res: Response): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (value: boolean) => () => {
      res.off('drain', onDrain).off('close', onClose);
      resolve(value);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.once('drain', onDrain).once('close', onClose);
  });
}
