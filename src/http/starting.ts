// The answers of a port that is open before the application is mounted (the migrations, or the wait for their lock,
// come first; the embedded provider's issuer needs the port): alive, not ready, and 503 with Retry-After to the rest.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { detectLocale } from '../i18n/request-locale.ts';
import { message } from '../i18n/messages.ts';
import { requestId } from '../observability/request-id.ts';
import { apiVersion } from './api-version.ts';

/** Long enough for a probe not to hammer the port, short enough that the first request after the start is soon. */
const retryAfter = '1';

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  // Like every answer of the application to come (openapi.yaml): its contract release and the request's id.
  requestId(res.req, res);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
    'API-Version': apiVersion, ...headers,
  }).end(body);
}

/**
 * `health`: this port serves /health/* (no MANAGEMENT_PORT, or the management port itself). A starting process is
 * alive (an orchestrator must not restart one that waits for another's migration) and not ready, as after a SIGTERM.
 */
export function answerStarting({ health }: { health: boolean }): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = req.url?.split('?')[0];
    if (health && path === '/health/live') return json(res, 200, { status: 'UP' });
    if (health && path === '/health/ready') return json(res, 503, { status: 'DOWN', reason: 'starting' },
      { 'Retry-After': retryAfter });
    json(res, 503, { general: message(detectLocale(req, res), 'error.starting') }, { 'Retry-After': retryAfter });
  };
}
