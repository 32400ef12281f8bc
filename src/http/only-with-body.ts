// Steps that have work only when a request carries a body, for the operations whose contract declares none.
import type { RequestHandler } from 'express';
import { handlerChain } from './handler-chain.ts';

/**
 * A read by id, a page or a delete declares no body: the body steps (reader, slot, decoding) pass such a request
 * untouched, each at its own cost. They are one step here, entered only by a request that has a body anyway (RFC
 * 9112 §6.3: Content-Length or Transfer-Encoding), which they then read, decode and check as on any operation.
 */
export function onlyWithBody(steps: readonly RequestHandler[]): RequestHandler {
  const chain = steps.length === 1 ? steps[0]! : handlerChain(steps);
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    return chain(req, res, next);
  };
}
