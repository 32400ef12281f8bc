// PostgreSQL's notifications of committed changes (the record_change table's trigger), on one connection per instance.
import pg from 'pg';
import type { Logger } from '../observability/logger.ts';

export interface NotificationSettings {
  url: string;
  connectTimeoutMs: number;
  logger: Logger;
}

/**
 * LISTENs on a connection of its own (a pooled one would be handed to other work). When the connection is lost it
 * reconnects, and calls `notified` once connected again: changes committed meanwhile are read then.
 */
export interface ChangeNotifications {
  /** Whether notifications arrive now; while not, the feed polls. */
  readonly connected: boolean;
  close(): Promise<void>;
}

export function listenForChanges({ url, connectTimeoutMs, logger }: NotificationSettings, notified: () => void): ChangeNotifications {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
    connection.on('notification', notified);
    connection.on('error', (error) => {
      logger.warn({ err: error }, 'the change feed lost its PostgreSQL notifications; reconnecting');
      void connection.end().catch(() => {});
      schedule();
    });
    try {
      await connection.connect();
      await connection.query('listen record_change');
      if (closed) return void await connection.end();
      client = connection;
      notified();
    } catch (error) {
      void connection.end().catch(() => {});
      logger.warn({ err: error }, 'the change feed cannot listen for PostgreSQL notifications yet; retrying');
      schedule();
    }
  };
  const schedule = () => {
    client = undefined;
    if (closed || retry) return;
    retry = setTimeout(() => { retry = undefined; void connect(); }, 1000);
    retry.unref();
  };
  void connect();
  return {
    get connected() { return client !== undefined; },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
