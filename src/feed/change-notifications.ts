// PostgreSQL's notifications of committed changes (the record_change table's trigger), on one connection per instance.
import { Socket } from 'node:net';
import pg from 'pg';
import type { Logger } from '../observability/logger.ts';

export interface NotificationSettings {
  url: string;
  connectTimeoutMs: number;
  logger: Logger;
}

/**
 * LISTENs on a connection of its own (a pooled one would be handed to other work), for low latency; the feed also
 * polls while it has streams, which bounds the delay when notifications are lost without a word (a cut network).
 * When the connection fails it reconnects, and calls `notified` once connected again.
 */
export interface ChangeNotifications {
  /** Whether the LISTEN session is connected now (readiness and metrics report it). */
  readonly listening: boolean;
  close(): void;
}

export function listenForChanges({ url, connectTimeoutMs, logger }: NotificationSettings,
  notified: () => void): ChangeNotifications {
  // The socket of the connection: closing destroys it at once, whether or not the database still answers.
  let socket: Socket | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let listening = false;

  const connect = async (): Promise<void> => {
    const own = new Socket();
    socket = own;
    const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs,
      stream: () => own, application_name: 'sighting-registry listen' });
    connection.on('notification', notified);
    connection.on('error', (error) => {
      // Closing destroys the socket, which the client reports as an error too.
      listening = false;
      if (closed) return;
      logger.warn({ err: error }, 'the change feed lost its PostgreSQL notifications; reconnecting');
      own.destroy();
      schedule();
    });
    try {
      await connection.connect();
      await connection.query('listen record_change');
      if (closed) return void own.destroy();
      listening = true;
      notified();
    } catch (error) {
      own.destroy();
      logger.warn({ err: error }, 'the change feed cannot listen for PostgreSQL notifications yet; retrying');
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => { retry = undefined; void connect(); }, 1000);
    retry.unref();
  };
  void connect();
  return {
    get listening() { return listening; },
    close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      socket?.destroy();
    },
  };
}
