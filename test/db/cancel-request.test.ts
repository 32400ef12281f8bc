// A cancel request's connection is closed by the side that takes it: PgBouncer 1.18 exits ("bad client state: 0",
// pgbouncer/pgbouncer#801) when a cancel request's client hangs up before PgBouncer has had the server's answer.
import { expect } from 'chai';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { sendCancelRequest } from '../../src/db/cancel-request.ts';
import { eventually } from '../support/condition.ts';

describe('a cancel request', () => {
  let server: Server;
  const connections: Socket[] = [];
  let taken: Promise<{ socket: Socket; request: Buffer; clientEnded: () => boolean }>;
  beforeEach(async () => {
    server = createServer();
    server.on('connection', (socket) => connections.push(socket));
    taken = new Promise((resolve) => server.once('connection', (socket) => {
      let clientEnded = false;
      socket.once('end', () => { clientEnded = true; }).once('close', () => { clientEnded = true; });
      socket.once('data', (request) => resolve({ socket, request, clientEnded: () => clientEnded }));
      // Later connections are echoed: a round trip on one is a turn of the server's loop after what came before it.
      server.on('connection', (later) => later.pipe(later));
    }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterEach(() => {
    for (const socket of connections.splice(0)) socket.destroy();
    server.close();
  });

  const target = () => ({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, processId: 4321,
    secretKey: -17 });

  /** Resolves once the server has read a byte sent after whatever the request's client did before. */
  async function afterServerRead(): Promise<void> {
    const probe = connect((server.address() as AddressInfo).port, '127.0.0.1');
    probe.resume().end('.');
    await once(probe, 'close');
  }

  it('when the other side closes the connection, then it resolves, having sent the protocol\'s CancelRequest',
    async () => {
      const sent = sendCancelRequest(target(), 600_000);
      const { socket, request } = await taken;
      socket.end();
      await sent;
      expect([...request.subarray(0, 8)]).to.deep.equal([0, 0, 0, 16, 0x04, 0xd2, 0x16, 0x2e]);
      expect([request.readInt32BE(8), request.readInt32BE(12), request.length]).to.deep.equal([4321, -17, 16]);
    });

  it('when the other side takes longer than the bound, then it resolves and leaves the connection for the other ' +
    'side to close', async () => {
    await sendCancelRequest(target(), 50);
    const { socket, clientEnded } = await taken;
    await afterServerRead();
    expect(clientEnded()).to.equal(false);
    socket.end();
    await eventually(() => socket.closed, { what: 'the connection closed once the other side ended it' });
  });
});
