// The slow-client bounds (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS) refuse slow clients, not requests that waited unread
// while the start held the event loop.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/config.ts';
import { openPorts, type ServicePorts } from '../../src/lifecycle/service-ports.ts';
import { holdLoop } from '../support/hold-loop.ts';

/** The status line of the first answer on `socket`. */
async function statusLine(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8');
  for await (const chunk of socket) {
    text += chunk as string;
    if (text.includes('\r\n')) break;
  }
  return text.split('\r\n')[0]!;
}

describe('slow-client bounds while the service starts', () => {
  let ports: ServicePorts;
  let port: number;
  before(async () => {
    ports = await openPorts(loadConfig({ PORT: '0', HOST: '127.0.0.1', HEADERS_TIMEOUT_MS: '100',
      REQUEST_TIMEOUT_MS: '100' }));
    port = (ports.server.address() as AddressInfo).port;
  });
  after(async () => { await ports?.close(); });

  /** A connection the server has accepted. */
  async function accepted(): Promise<Socket> {
    const acceptedHere = once(ports.server, 'connection');
    const socket = connect(port, '127.0.0.1');
    await Promise.all([once(socket, 'connect'), acceptedHere]);
    return socket;
  }

  it('when a request was sent while the start held the loop past the bounds, then it is answered, not refused',
    async () => {
      const socket = await accepted();
      socket.write('GET /health/ready HTTP/1.1\r\nHost: localhost\r\n\r\n');
      holdLoop(1500);
      expect(await statusLine(socket)).to.equal('HTTP/1.1 503 Service Unavailable');
      socket.destroy();
    });

  it('when the application is mounted, then a client that does not finish its header is refused after the bound',
    async () => {
      ports.mount((_req, res) => res.end('mounted'), undefined);
      // The bounds hold again from the turn after the mount.
      await new Promise((resolve) => setImmediate(resolve));
      const socket = await accepted();
      socket.write('GET /health/ready HTTP/1.1\r\n');
      expect(await statusLine(socket)).to.equal('HTTP/1.1 408 Request Timeout');
      socket.destroy();
    });
});
