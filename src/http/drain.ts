// Graceful drain of an HTTP server: in-flight requests finish, every later answer says `Connection: close`, and no
// request that reached the instance before it stopped accepting is reset unread.
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
   * reconnects elsewhere instead of being cut at the timeout, unless it unregisters with `offStop` first.
   */
  onStop(end: () => void): void;
  offStop(end: () => void): void;
  /**
   * True once the stop's time is up: a request read from now on (it reached the instance before its listener closed,
   * but the loop was busy) is answered 503 stopping before the application starts on it.
   */
  overdue(): boolean;
}

interface Connection {
  served: number;
  busy: ServerResponse | undefined;
  /** The socket's bytesRead once its last request was read whole or answered: bytes beyond are a request begun. */
  settled: number;
}

// An idle keep-alive connection is closed after this (time for a request its client sends as it reads the last
// answer to arrive); one accepted but whose first request has not arrived yet gets longer.
const idleGraceMs = 50;
const firstRequestGraceMs = 2000;

// Twice node's default listen backlog (511): the stop accepts what the kernel queued, and no stream beyond.
const acceptTurns = 1024;

// Time for a refusal to reach its client before the connection is closed anyway.
const refusalGraceMs = 1000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once the loop has polled its sockets since the call: what the kernel held then is accepted and read, and
 * a request among it is a request in flight. A timer alone does not do that: a loop kept busy runs its due timers
 * before it polls, so a connection with its next request already in the kernel looked idle and was reset.
 */
async function pollSince(): Promise<void> {
  // An immediate queued in the poll or check phase runs before the next poll; the second one runs after it.
  await turn();
  await turn();
}

/** `refuse` answers a request the stop cannot wait for any longer (503 with Retry-After, src/http/stopping.ts). */
export function drainable(server: Server, refuse: (req: IncomingMessage, res: ServerResponse) => void): Drain {
  const connections = new Map<Socket, Connection>();
  const longLived = new Set<() => void>();
  let stopping = false;
  let overdue = false;
  let accepted = 0;
  // Shared by every connection, no closure (and `once` wrapper) of its own: a connection that holds a stream of events
  // would keep them for as long as it lasts. A socket closes once.
  function forget(this: Socket): void {
    connections.delete(this);
  }
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    connections.set(socket, { served: 0, busy: undefined, settled: 0 });
    socket.on('close', forget);
  });
  /** The request was read whole, or answered: bytes beyond it are the next request begun. */
  function settle(this: IncomingMessage | ServerResponse): void {
    const socket = 'req' in this ? this.req.socket : this.socket!;
    const connection = connections.get(socket);
    if (connection) connection.settled = Math.max(connection.settled, socket.bytesRead);
  }
  function answered(this: ServerResponse): void {
    settle.call(this);
    const connection = connections.get(this.req.socket);
    if (connection?.busy !== this) return;
    connection.busy = undefined;
    connection.served += 1;
    // An answer whose headers left before the stop did not say Connection: close, so the client may already be
    // sending its next request on this connection: it is idle now, and handled like the connections idle at the stop.
    if (stopping) closeWhenIdle(this.req.socket, idleGraceMs);
  }
  // The state is the connection's; each request adds two listeners shared by all of them, no closure of its own.
  server.prependListener('request', (req, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (connection) connection.busy = res;
    req.on('end', settle);
    res.on('close', answered);
    // RFC 9112 §9.6: the client learns the connection ends after this answer and sends nothing more on it.
    if (stopping) res.setHeader('Connection', 'close');
  });

  /** Idle: no request in flight and no byte of another read. */
  const idle = (socket: Socket, connection: Connection) => !connection.busy && socket.bytesRead === connection.settled;

  /**
   * Closed once the loop has read what already arrived, and only if nothing did: a request sent before the close is
   * answered (with Connection: close) instead of being reset unread. (RFC 9112 §9.3.1: what a client sends after the
   * close, it retries.)
   */
  function closeWhenIdle(socket: Socket, graceMs: number): void {
    setTimeout(async () => {
      await pollSince();
      const connection = connections.get(socket);
      if (connection && idle(socket, connection)) socket.destroy();
    }, graceMs).unref();
  }

  function announce(): void {
    if (stopping) return;
    stopping = true;
    for (const { busy } of connections.values()) if (busy && !busy.headersSent) busy.setHeader('Connection', 'close');
  }

  /**
   * At the timeout: a request whose answer has not begun is told the instance stops, and its client retries
   * elsewhere; one half-answered only a cut can end. A connection without a request is closed if nothing arrived on
   * it; a request read from now on is refused (`overdue`). Counts the cuts.
   */
  function endTheRest(): number {
    let cut = 0;
    for (const [socket, connection] of connections) {
      const { busy } = connection;
      if (!busy) closeWhenIdle(socket, 0);
      else if (!busy.headersSent) refuse(busy.req, busy);
      else if (!busy.writableFinished) {
        cut += 1;
        socket.destroy();
      }
    }
    return cut;
  }

  /**
   * After the refusals' grace: whatever is still open is closed, and counted as cut when an answer was still under
   * way or a request half-received.
   */
  function cutTheRest(): number {
    let cut = 0;
    for (const [socket, connection] of connections) {
      const { busy } = connection;
      if (busy ? !busy.writableFinished : !idle(socket, connection)) cut += 1;
      socket.destroy();
    }
    return cut;
  }

  return {
    announce,
    onStop(end) {
      longLived.add(end);
    },
    offStop(end) {
      longLived.delete(end);
    },
    overdue: () => overdue,
    async stop(timeoutMs) {
      announce();
      for (const end of longLived) end();
      longLived.clear();
      let cut = 0;
      let lastGrace: NodeJS.Timeout | undefined;
      const acceptedAll = acceptAndClose();
      const timeout = setTimeout(async () => {
        overdue = true;
        // Requests already in the kernel are read first: refused with an answer, not cut unread.
        await pollSince();
        cut += endTheRest();
        lastGrace = setTimeout(async () => {
          await acceptedAll;
          await pollSince();
          cut += cutTheRest();
        }, refusalGraceMs).unref();
      }, timeoutMs);
      await (await acceptedAll).closed;
      clearTimeout(timeout);
      clearTimeout(lastGrace);
      return { cut };
    },
  };

  /**
   * Stops accepting without resetting a connection the kernel has already completed, reads the first requests of the
   * ones just accepted, and closes those idle. `closed` resolves when the last connection has closed.
   */
  async function acceptAndClose(): Promise<{ closed: Promise<void> }> {
    // The loop accepts one connection a turn: the queue is empty when a turn accepts none. Bounded, so a stream of
    // new connections cannot hold the stop.
    for (let before = -1, turns = 0; before !== accepted && turns < acceptTurns; turns += 1) {
      before = accepted;
      await pollSince();
    }
    // net's close, not http's: http's would also destroy connections whose first request is still on its way in.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    await pollSince();
    // Idle between requests: nothing to finish. A new connection gets a little longer for its first request, unless
    // the stop's time is up.
    for (const [socket, connection] of connections) {
      if (idle(socket, connection)) closeWhenIdle(socket, connection.served > 0 || overdue ? 0 : firstRequestGraceMs);
    }
    return { closed };
  }
}
