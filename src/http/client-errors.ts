// Answers requests node's HTTP parser refuses (e.g. headers above HEADER_LIMIT) with a contract body, not a reset.
import type { Socket } from 'node:net';

const statuses: Record<string, [number, string, string]> = {
  // RFC 6585 §5.
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request\'s header fields are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
};
const badRequest: [number, string, string] = [400, 'Bad Request', 'The request is not well-formed HTTP.'];

/**
 * Node's default writes a bare status and destroys the socket; with request bytes still unread that is a TCP
 * reset, and the client never sees the status. Here the answer is written, the socket half-closed, and what
 * the client still sends is read and dropped until it closes too (bounded by `lingerMs`).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, lingerMs = 5000): void {
  if (!socket.writable || socket.writableEnded) return void socket.destroy();
  const [status, reason, message] = statuses[error.code ?? ''] ?? badRequest;
  // English: no request was parsed, so there is no Accept-Language or cookie to choose another language by.
  const body = JSON.stringify({ general: message });
  // The parser is done with this socket; drop whatever else arrives instead of parsing it again.
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), lingerMs).unref();
}
