// A PostgreSQL cancel request for a session's running statement: what the server's own statement_timeout would do,
// sent by the service when its own bound passes (PostgreSQL protocol, "Canceling Requests in Progress").
import { connect } from 'node:net';

/** The protocol's request code of a CancelRequest (1234 in the high half, 5678 in the low). */
const cancelRequestCode = 80877102;

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
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, boundMs);
    // Written, not ended: PgBouncer 1.18 drops a cancel request that arrives with the end of its connection.
    socket.once('connect', () => socket.write(message)).once('close', done).once('error', done);
  });
}
