// What a stopping instance answers to work it cannot finish: 503, Retry-After and a message of its own, never the
// database's (which is up; it is this instance that goes away).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceUnavailable } from '../errors/app-errors.ts';
import { detectLocale } from '../i18n/request-locale.ts';
import { message } from '../i18n/messages.ts';
import { apiVersion } from './api-version.ts';
import { requestId } from '../observability/request-id.ts';

// RFC 9110 §10.2.3: another instance can answer at once; one second spares a client that comes back to this address.
const retryAfter = '1';

export const instanceStopping = (): ServiceUnavailable =>
  new ServiceUnavailable('error.stopping', {}, { 'Retry-After': retryAfter });

/**
 * The drain's answer to a request still in flight when the stop's time is up and whose answer has not begun: the
 * handler may still be waiting for the database or for the rest of the body. JSON, as every answer before the app.
 */
export function answerStopping(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ general: message(detectLocale(req, res), 'error.stopping') });
  // Every answer names its request (openapi.yaml); one refused before the application saw it has no id yet.
  if (!res.hasHeader('X-Request-Id')) requestId(req, res);
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
      'Retry-After': retryAfter, Connection: 'close',
    // Set already when the application saw the request; this answer may come before it did.
    'API-Version': apiVersion,
  }).end(body);
}
