// The answer to a request that arrives after the server listens but before the application is mounted (the
// embedded provider's issuer needs the port first): 503 with Retry-After, as readiness says then, never no answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { detectLocale } from '../i18n/request-locale.ts';
import { message } from '../i18n/messages.ts';

export function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ general: message(detectLocale(req, res), 'error.starting') });
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Retry-After': '1' }).end(body);
}
