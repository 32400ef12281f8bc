// A long-lived answer (a stream of events) registered with the drain ends cleanly when the server stops, not at the
// timeout.
import { expect } from 'chai';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { drainable } from '../../src/http/drain.ts';
import { answerStopping } from '../../src/http/stopping.ts';

describe('drain: long-lived answers', () => {
  it('when the server stops while a stream is open, ' +
    'then the stream gets its last words and ends, and nothing is cut', async () => {
    const server = createServer();
    const drain = drainable(server, answerStopping);
    server.on('request', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(': open\n\n');
      const end = () => res.end(': closing, reconnect elsewhere\n\n');
      drain.onStop(end);
      res.once('close', () => drain.offStop(end));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const response = await new Promise<IncomingMessage>((resolve) => request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve).end());
    let text = '';
    response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
    await new Promise((resolve) => response.once('data', resolve));

    const [result] = await Promise.all([drain.stop(60_000), once(response, 'end')]);
    expect({ result, text })
      .to.deep.equal({ result: { cut: 0 }, text: ': open\n\n: closing, reconnect elsewhere\n\n' });
  });
});
