// Graceful drain of an HTTP server: in-flight requests finish, every later answer says `Connection: close`.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';

export interface Drain {
  /** From now on every answer says `Connection: close`; the listener still accepts (balancers are still sending). */
  announce(): void;
  /**
   * Stops accepting, ends the long-lived answers, closes idle connections, waits up to `timeoutMs` for the rest; then
   * a request whose answer has not begun is refused (`refuse`) and one half-sent is cut. Says how many were cut.
   */
  stop(timeoutMs: number): Promise<{ cut: number }>;
  /**
   * A long-lived answer (a stream of events) registers how to end it cleanly; `stop` calls that, so its client
   * reconnects elsewhere instead of being cut at the timeout. The returned function unregisters it.
   */
  onStop(end: () => void): () => void;
}

interface Connection { served: number; busy: ServerResponse | undefined }

// An idle keep-alive connection is closed after this (time for bytes already received to be read); one accepted
// but whose first request has not been read yet gets longer.
const idleGraceMs = 50;
const firstRequestGraceMs = 2000;

// Time for a refusal to reach its client before the connection is closed anyway.
const refusalGraceMs = 1000;

/** `refuse` answers a request the stop cannot wait for any longer (503 with Retry-After, src/http/stopping.ts). */
export function drainable(server: Server, refuse: (req: IncomingMessage, res: ServerResponse) => void): Drain {
  const connections = new Map<Socket, Connection>();
  const longLived = new Set<() => void>();
  let stopping = false;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { served: 0, busy: undefined });
    socket.once('close', () => connections.delete(socket));
  });
  server.prependListener('request', (req, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (connection) connection.busy = res;
    res.once('close', () => {
      if (connection?.busy !== res) return;
      connection.busy = undefined;
      connection.served += 1;
      // An answer whose headers left before the stop did not say Connection: close, so the client may already be
      // sending its next request on this connection: it is idle now, and handled like the connections idle at the stop.
      if (stopping) closeWhenIdle(req.socket, idleGraceMs);
    });
    // RFC 9112 §9.6: the client learns the connection ends after this answer and sends nothing more on it.
    if (stopping) res.setHeader('Connection', 'close');
  });

  /**
   * Closed once the loop has read what already arrived, so a request sent before the close is answered (with
   * Connection: close) instead of being cut unread. (RFC 9112 §9.3.1: what a client sends later, it retries.)
   */
  function closeWhenIdle(socket: Socket, graceMs: number): void {
    setTimeout(() => { if (!connections.get(socket)?.busy) socket.destroy(); }, graceMs).unref();
  }

  function announce(): void {
    if (stopping) return;
    stopping = true;
    for (const { busy } of connections.values()) if (busy && !busy.headersSent) busy.setHeader('Connection', 'close');
  }

  return {
    announce,
    onStop(end) {
      longLived.add(end);
      return () => longLived.delete(end);
    },
    async stop(timeoutMs) {
      announce();
      for (const end of longLived) end();
      longLived.clear();
      // net's close, not http's: http's would also destroy connections whose first request is still on its way in.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      for (const [socket, { served, busy }] of connections) {
        // Idle between requests: nothing to finish. A new connection gets a little longer for its first request.
        if (!busy) closeWhenIdle(socket, served > 0 ? idleGraceMs : firstRequestGraceMs);
      }
      let cut = 0;
      let lastGrace: NodeJS.Timeout | undefined;
      const timeout = setTimeout(() => {
        for (const [socket, { busy }] of connections) {
          // Not begun: the client is told the instance stops, and retries elsewhere; begun: only a cut can tell it.
          if (busy && !busy.headersSent) refuse(busy.req, busy);
          else {
            if (busy && !busy.writableFinished) cut += 1;
            socket.destroy();
          }
        }
        lastGrace = setTimeout(() => { for (const socket of connections.keys()) socket.destroy(); }, refusalGraceMs);
      }, timeoutMs);
      await closed;
      clearTimeout(timeout);
      clearTimeout(lastGrace);
      return { cut };
    },
  };
}
