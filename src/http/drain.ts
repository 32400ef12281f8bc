// Graceful drain of an HTTP server: in-flight requests finish, every later answer says `Connection: close`.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export interface Drain {
  /** Stops accepting, closes idle connections at once, waits up to `timeoutMs` for the rest; says how many were cut. */
  stop(timeoutMs: number): Promise<{ cut: number }>;
}

interface Connection { served: number; busy: ServerResponse | undefined }

// An idle keep-alive connection is closed after this (time for bytes already received to be read); one accepted
// but whose first request has not been read yet gets longer.
const idleGraceMs = 50;
const firstRequestGraceMs = 2000;

export function drainable(server: Server): Drain {
  const connections = new Map<Socket, Connection>();
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
      // Idle now, and the answer said Connection: close: node ends the connection itself; this is the backstop.
      if (stopping) req.socket.destroySoon();
    });
    // RFC 9112 §9.6: the client learns the connection ends after this answer and sends nothing more on it.
    if (stopping) res.setHeader('Connection', 'close');
  });

  return {
    async stop(timeoutMs) {
      stopping = true;
      for (const { busy } of connections.values()) if (busy && !busy.headersSent) busy.setHeader('Connection', 'close');
      // net's close, not http's: http's would also destroy connections whose first request is still on its way in.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      for (const [socket, { served, busy }] of connections) {
        if (busy) continue;
        // Idle between requests: nothing to finish. Closed once the loop has read what already arrived, so a request
        // sent before the stop is answered (with Connection: close) instead of being cut unread; a new connection
        // gets a little longer for its first request. (RFC 9112 §9.3.1: what a client sends later, it retries.)
        setTimeout(() => { if (!connections.get(socket)?.busy) socket.destroy(); }, served > 0 ? idleGraceMs : firstRequestGraceMs).unref();
      }
      let cut = 0;
      const timeout = setTimeout(() => {
        cut = [...connections.values()].filter(({ busy }) => busy && !busy.writableFinished).length;
        for (const socket of connections.keys()) socket.destroy();
      }, timeoutMs);
      await closed;
      clearTimeout(timeout);
      return { cut };
    },
  };
}
