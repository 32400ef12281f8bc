// Slow clients (slowloris) and requests no route can take (CONNECT) get an HTTP answer, and their connection is freed.
import { expect } from 'chai';
import { connect } from 'node:net';
import { startService, type TestService } from '../support/service.ts';
import { rawHttp } from '../support/raw-http.ts';
import { tokenFor } from '../support/tokens.ts';

/**
 * Sends `text` and keeps the connection open, as a slow client does, until the server ends it; answers what it sent
 * back.
 */
function sendSlowly(origin: string, text: string): Promise<{ answer: string; ending: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let ending = 'close';
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => { ending = error.code ?? error.message; });
    // The server half-closes after its answer; the client closes its side then, as a real one would.
    socket.on('end', () => socket.end());
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('utf8'), ending }));
    socket.write(text);
  });
}

const timeout = { status: 'HTTP/1.1 408 Request Timeout', body: '{"general":"The request took too long to arrive."}' };
const statusAndBody = ({ answer }: { answer: string }) =>
  ({ status: answer.split('\r\n')[0], body: answer.split('\r\n\r\n')[1] });

describe('slow clients and CONNECT', () => {
  let service: TestService;
  before(async () => { service = await startService({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000' }); });
  after(async () => { await service?.stop(); });

  it('when 50 clients each send half a header section and wait, ' +
    'then each gets a 408 and its connection is closed', async () => {
    const answers = await Promise.all(Array.from({ length: 50 },
      () => sendSlowly(service.url, 'GET /api/sighting HTTP/1.1\r\nHost: x\r\nX-Slow: ')));
    expect(answers.map(statusAndBody)).to.deep.equal(Array(50).fill(timeout));
    expect(answers.map((a) => a.ending)).to.deep.equal(Array(50).fill('close'));
  });

  const partialBody =
    'POST /api/sighting/qbe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n';
  it('when a client sends its header and then only part of the body it announced, then it gets a 408', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const answer = await sendSlowly(service.url, `${partialBody}Authorization: Bearer ${token}\r\n\r\n{"sight`);
    expect(statusAndBody(answer)).to.deep.equal(timeout);
  });

  it('when a request is refused before its body is read, ' +
    'then that one answer says Connection: close and the connection ends', async () => {
    const answer = await sendSlowly(service.url, `${partialBody}\r\n{"sight`);
    expect({ ...statusAndBody(answer), close: answer.answer.includes('\r\nConnection: close\r\n') })
      .to.deep.equal({ status: 'HTTP/1.1 401 Unauthorized',
        body: '{"general":"A valid access token is required."}', close: true });
  });

  it('when a client sends CONNECT, ' +
    'then it gets a 405 naming the allowed methods, not a closed connection', async () => {
    const answer = await rawHttp(service.url, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect({ status: answer.status, allow: answer.headers.allow, body: answer.body, ending: answer.ending })
      .to.deep.equal({ status: 405, allow: 'GET, HEAD, POST, PUT, DELETE',
        body: '{"general":"This method is not allowed here."}', ending: 'close' });
  });
});
