// A TCP proxy on 127.0.0.1:0 in front of a server (PostgreSQL) that a test can cut and restore, to take the database away.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on; clients connect here instead of to the target. */
  port: number;
  /** Destroys every proxied connection and stops listening, so new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(socket);
      socket.on('close', () => { sockets.delete(socket); other.destroy(); });
      socket.on('error', () => other.destroy());
      socket.pipe(other);
    }
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => {
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
  return { port, cut: stop, restore: () => listen(port), close: stop };
}
