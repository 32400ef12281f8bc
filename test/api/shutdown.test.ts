// Graceful shutdown: stopWebServer lets a request in flight finish, and refuses new connections.
import { expect } from 'chai';
import { request, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { contractProblems } from '../support/contract.ts';
import { stopWebServer } from '../../src/lifecycle/web-server.ts';
import { eventually } from '../support/condition.ts';

describe('graceful shutdown', () => {
  let service: TestService;
  let stopped: Promise<unknown> | undefined;

  before(async () => {
    service = await startService({ SHUTDOWN_TIMEOUT_MS: '10000' });
  });

  after(async () => {
    // The test stops the web server itself; stop() then closes what is left (on PostgreSQL it drops the scratch
    // database).
    await stopped;
    await service.stop();
  });

  it('when the server is stopped while a request is in flight, ' +
    'then that request completes with 200 and a new connection is refused', async () => {
    const token = await tokenFor(service.realm, 'alice');
    // Warm up: the token check has fetched the realm's keys, so the held request needs nothing from the stopping
    // server.
    expect((await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } })).status)
      .to.equal(200);

    // Holds a query by example open: headers and half the body now, the rest after the server is told to stop.
    const body = JSON.stringify({ sightingMemo: 'unheimlich' });
    const url = new URL(`${service.api}/sighting/qbe`);
    const held = request(url, {
      method: 'POST',
      agent: false,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body) },
    });
    const answered = new Promise<{ response: IncomingMessage; text: string }>((resolve, reject) => {
      held.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; })
          .on('end', () => resolve({ response, text }));
      }).on('error', reject);
    });
    // In flight once the server has read its headers (the service runs in this process).
    const seen = once(service.web.server, 'request');
    held.write(body.slice(0, 10));
    await seen;

    stopped = stopWebServer(service.web);
    await eventually(() => !service.web.server.listening, { within: 10_000, what: 'the listener closed' });

    const refused = await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } })
      .then(() => 'answered', (error: Error & { cause?: { code?: string } }) => error.cause?.code);
    expect(refused).to.equal('ECONNREFUSED');

    held.end(body.slice(10));
    const { response, text } = await answered;
    expect(response.statusCode).to.equal(200);
    const found = JSON.parse(text) as unknown;
    expect(contractProblems({ method: 'POST', path: '/sighting/qbe', status: 200,
      headers: new Headers(response.headers as Record<string, string>), body: found }, 'json')).to.deep.equal([]);
    expect(found).to.deep.equal([{
      version: 0, sightingId: -1, sightingMemo: 'unheimlich!',
      vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null,
    }]);
    await stopped;
  });
});
