// A PostgreSQL cancel request for a session's running statement: what the server's own statement_timeout would do,
// sent by the service when its own bound passes (PostgreSQL protocol, "Canceling Requests in Progress").
import { connect } from 'node:net';

/** The protocol's request code of a CancelRequest (1234 in the high half, 5678 in the low). */
const cancelRequestCode = 80877102;

/**
 * How long a request's connection is left for the other side to close after the caller stopped waiting: PgBouncer
 * 1.18 (Debian 12's) exits with "bad client state: 0" when a cancel request's client hangs up before the server it
 * forwarded the request to has answered (pgbouncer/pgbouncer#801), as on a loaded machine it can take more than the
 * caller's bound.
 */
const lingerMs = 60_000;

export interface CancelTarget {
  /**
   * The address the session was opened on: PostgreSQL, or a PgBouncer, which forwards the request to the server session
   * its client is linked to.
   */
  host: string;
  port: number;
  /** The BackendKeyData the session was given at its start (PgBouncer gives each client a key of its own). */
  processId: number;
  secretKey: number;
}

/**
 * Sends the request on a connection of its own and resolves once the other side has closed it (PostgreSQL closes it
 * when it has signalled the backend), or after `boundMs` (a server that does not answer gets no more time than
 * that). Never rejects: a cancel that cannot be sent leaves the statement to the server's own bound, if any.
 * The connection is closed by the other side, or after `lingerMs`, without holding the process open.
 */
export function sendCancelRequest({ host, port, processId, secretKey }: CancelTarget, boundMs: number): Promise<void> {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(cancelRequestCode, 4);
  message.writeInt32BE(processId, 8);
  message.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    // A host that is a folder is a Unix socket, named as libpq names it.
    const socket = host.startsWith('/') ? connect({ path: `${host}/.s.PGSQL.${port}` }) : connect({ host, port });
    const bound = setTimeout(() => {
      socket.unref();
      resolve();
    }, boundMs);
    const linger = setTimeout(() => socket.destroy(), lingerMs).unref();
    const closed = () => {
      clearTimeout(bound);
      clearTimeout(linger);
      socket.destroy();
      resolve();
    };
    // Written, not ended: PgBouncer 1.18 drops a cancel request that arrives with the end of its connection.
    socket.once('connect', () => socket.write(message)).once('close', closed).once('error', closed);
  });
}
