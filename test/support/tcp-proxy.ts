// A TCP proxy on 127.0.0.1:0 in front of a server (PostgreSQL) that a test can cut, partition and restore.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';
import { startService, type TestService } from './service.ts';
import { expect } from 'chai';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { tokenFor } from './tokens.ts';
import { eventually } from './condition.ts';

export interface TcpProxy {
  /** The port the proxy listens on; clients connect here instead of to the target. */
  port: number;
  /** Destroys every proxied connection and stops listening, so new connections are refused. */
  cut(): Promise<void>;
  /**
   * A network partition: nothing is refused or closed, bytes just stop arriving. Open connections go silent both
   * ways; new connections are accepted and then never answered.
   */
  partition(): void;
  /** The connections open now go silent both ways, as in a partition; new ones pass (a single path is lost). */
  stallOpen(): void;
  /** Listens again on the same port (after cut), or ends a partition by dropping its stalled connections. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let partitioned = false;
  const stalled = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    // During a partition the connection is accepted (the SYN got through) but nothing more ever does.
    if (partitioned) return;
    const upstream = connect(target.port, target.host);
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(socket);
      socket.on('close', () => { sockets.delete(socket); other.destroy(); });
      socket.on('error', () => other.destroy());
      // Dropped, not queued: a partition loses what is sent while it lasts.
      socket.on('data', (chunk) => { if (!partitioned && !stalled.has(socket)) other.write(chunk); });
    }
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject)
    .listen(port, '127.0.0.1', () => {
    server.off('error', reject);
    resolve();
  }));
  const stop = () => new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });

  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    port,
    cut: stop,
    partition() { partitioned = true; },
    stallOpen() { for (const socket of sockets) stalled.add(socket); },
    async restore() {
      // The stalled connections lost bytes both ways; like TCP giving up on them, they end now.
      if (partitioned) for (const socket of sockets) socket.destroy();
      for (const socket of stalled) socket.destroy();
      partitioned = false;
      stalled.clear();
      if (!server.listening) await listen(port);
    },
    close: stop,
  };
}

/** A service on a scratch database of its own, reaching PostgreSQL (DATABASE_URL's server) through a proxy. */
export interface ProxiedService {
  proxy: TcpProxy;
  scratch: ScratchDatabase;
  service: TestService;
  /** Restores the proxy, stops the service, closes the proxy, drops the database: whatever of it was made. */
  close(): Promise<void>;
}

export async function serviceBehindProxy(env: Record<string, string> = {}): Promise<ProxiedService> {
  const server = new URL(process.env.DATABASE_URL!);
  const scratch = await createScratchDatabase(server.toString());
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  const viaProxy = new URL(scratch.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const close = async (service?: TestService) => {
    await proxy.restore().catch(() => {});
    await service?.stop();
    await proxy.close();
    await scratch.drop();
  };
  const service = await startService({ DATABASE_URL: viaProxy.toString(), ...env }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { proxy, scratch, service, close: () => close(service) };
}

/**
 * A long list (50,000 more sightings in `proxied`'s database) whose client has read its first chunk and stopped:
 * the service waits for the socket to drain, its cursor idle between fetches. Uncompressed: compressed, the whole list
 * would fit the sockets' buffers and be read before whatever the test does to the connection next. The tests using
 * it bound each fetch at a second or two: on a loaded machine a fetch can take longer before the test has done
 * anything to the connection, and the service cuts the answer, as it should; the list is then asked for again.
 */
export async function longListWaitingForItsClient({ scratch, service }: ProxiedService):
  Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  await db.query('insert into sighting (sighting_memo, vessel_id, creator) ' +
    `select 'streamed ' || g, -1, 'bulk' from generate_series(1, 50000) g`);
  await db.end();
  const token = await tokenFor(service.realm, 'alice');
  for (let attempt = 1; ; attempt++) {
    // The list's answer as the service (in this process) writes it.
    const answer = once(service.web.server, 'request').then(([, res]) => res as ServerResponse);
    const response = await fetch(`${service.api}/sighting`,
      { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' } });
    expect(response.status).to.equal(200);
    const reader = response.body!.getReader();
    await reader.read();
    const written = await answer;
    await eventually(() => written.writableNeedDrain || written.destroyed || written.writableFinished,
      { within: 30_000, what: 'the list waiting for its client, or cut' });
    if (written.writableNeedDrain) return reader;
    await reader.cancel().catch(() => {});
    if (attempt === 3) throw new Error('the list was cut before the test began, three times in a row');
  }
}

/** Reads `reader` to its end: `complete`, or `cut` when the answer broke off. */
export async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<'cut' | 'complete'> {
  try {
    while (!(await reader.read()).done);
    return 'complete';
  } catch {
    return 'cut';
  }
}
