// A test's own server on 127.0.0.1, on a port the system picks.
import type { AddressInfo, Server } from 'node:net';

/** Starts `server` listening on a free loopback port; resolves to its origin, `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
