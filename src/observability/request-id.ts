// The request id: the caller's `X-Request-Id` when it is well-formed, else a new UUID; always sent back.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// Visible ASCII without separators a log or header could misread: a proxy's id (UUID, trace id) passes,
// anything longer than 128 characters or carrying spaces, quotes or control characters is replaced.
const wellFormed = /^[A-Za-z0-9._:+/=-]{1,128}$/;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && wellFormed.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
