// Bounds how many request bodies are decoded, parsed and validated at once, so large bodies cannot starve the rest.
import type { Request, RequestHandler, Response } from 'express';

/**
 * Body work is CPU on the one event loop that PGlite shares too: 50 clients posting 63 KB bodies each got their share
 * at once, and a read by id queued behind all of them (docs/benchmarks.md). A slot is taken once the bytes are in
 * (receiving them costs little, and a client that sends slowly must not hold a slot) and given back after validation.
 */
const slots = 4;

interface BodySlots {
  /** Once the body is read, before it is decoded: waits for a slot when the request has a body. */
  take: RequestHandler;
  /** After the body is validated: the slot goes to the next waiting request. Also on any earlier answer. */
  release: RequestHandler;
}

export function bodySlots(size = slots): BodySlots {
  let busy = 0;
  const waiting: Array<() => void> = [];
  const holders = new WeakSet<Request>();

  function free(req: Request): void {
    if (!holders.delete(req)) return;
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  }

  const take: RequestHandler = (req: Request, res: Response, next) => {
    // RFC 9112 §6.3: neither header, no body to read.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    const start = () => {
      holders.add(req);
      // An error answered before `release`, or a client that leaves while it waits or is read: the slot is freed.
      // An answer closes once (`on`: no wrapper per request).
      res.on('close', () => free(req));
      next();
    };
    const gone = () => {
      const index = waiting.indexOf(start);
      if (index >= 0) waiting.splice(index, 1);
    };
    if (busy < size) {
      busy += 1;
      start();
    } else {
      waiting.push(start);
      res.once('close', gone);
    }
  };
  const release: RequestHandler = (req, _res, next) => {
    free(req);
    next();
  };
  return { take, release };
}
