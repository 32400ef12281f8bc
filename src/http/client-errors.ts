// Answers what node's HTTP parser hands over without a request to route (a refused header, a timeout, CONNECT)
// with a contract body, not a reset.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { apiVersion } from './api-version.ts';

type Answer = [status: number, reason: string, message: string, headers?: string];
const statuses: Record<string, Answer> = {
  // RFC 6585 §5.
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request\'s header fields are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
};
const badRequest: Answer = [400, 'Bad Request', 'The request is not well-formed HTTP.'];
// RFC 9110 §9.3.6: CONNECT asks for a tunnel, which this origin server never opens.
const noTunnel: Answer = [405, 'Method Not Allowed', 'This method is not allowed here.',
  'Allow: GET, HEAD, POST, PUT, DELETE\r\n'];

/**
 * Node's default writes a bare status and destroys the socket; with request bytes still unread that is a TCP
 * reset, and the client never sees the status. Here the answer is written, the socket half-closed, and what
 * the client still sends is read and dropped until it closes too (bounded by `lingerMs`).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, lingerMs = 5000): void {
  answerRaw(socket, statuses[error.code ?? ''] ?? badRequest, lingerMs);
}

/** Without a `connect` listener node destroys the socket: the client would get no answer at all. */
export function answerConnect(_req: IncomingMessage, socket: Socket): void {
  answerRaw(socket, noTunnel, 5000);
}

function answerRaw(socket: Socket, [status, reason, message, headers = '']: Answer, lingerMs: number): void {
  if (!socket.writable || socket.writableEnded) return void socket.destroy();
  // English: no request was parsed (or routed), so there is no Accept-Language or cookie to choose another language by.
  const body = JSON.stringify({ general: message });
  // The parser is done with this socket; drop whatever else arrives instead of parsing it again.
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  // Like every answer (openapi.yaml): the contract release, and an id of its own (no request id could be read).
  const named = `API-Version: ${apiVersion}\r\nX-Request-Id: ${randomUUID()}\r\n`;
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${named}${headers}Content-Type: application/json; charset=utf-8\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), lingerMs).unref();
}
