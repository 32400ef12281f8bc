// The request log: one JSON line per request with its id, route template, status, duration and caller; no token, no
// body.
import { expect } from 'chai';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';
import { dataOf, openEventStream } from '../support/event-stream.ts';
import { captureLog, type LogCapture } from '../support/log-capture.ts';
import { eventually } from '../support/condition.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request log', function () {
  let service: TestService;
  let log: LogCapture;
  let token: string;

  before(async function () {
    log = captureLog();
    service = await startService({ LOG_LEVEL: 'info' }, { logDestination: log });
    token = await tokenFor(service.realm, 'alice');
  });
  after(async () => { await service?.stop(); });

  /** The line is written when the answer ends, which the client may see a moment earlier. */
  async function lineOf(requestId: string): Promise<Record<string, unknown>> {
    const lines = await eventually(() => {
      const found = log.lines.filter((line) => line.requestId === requestId);
      return found.length ? found : undefined;
    }, { within: 30_000, what: `a log line with requestId ${requestId}` });
    expect(lines, 'one line per request').to.have.length(1);
    return lines[0]!;
  }

  const subjectOf = (jwt: string) =>
    (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

  it('when a request carries a well-formed X-Request-Id, then the answer returns it and its one log line has it with ' +
    'method, route template, status, duration and subject', async () => {
    const response = await fetch(`${service.api}/sighting/-1`,
      { headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'trace-4bf92f3577b34da6' } });

    expect({ status: response.status, requestId: response.headers.get('X-Request-Id') })
      .to.deep.equal({ status: 200, requestId: 'trace-4bf92f3577b34da6' });
    const line = await lineOf('trace-4bf92f3577b34da6');
    expect(line).to.have.all.keys('level', 'time', 'service', 'requestId', 'method', 'route', 'status',
      'durationMs', 'subject', 'msg');
    expect({ ...line, time: typeof line.time, durationMs: typeof line.durationMs }).to.deep.equal({
      level: 30, time: 'number', service: 'sighting-registry', requestId: 'trace-4bf92f3577b34da6',
      method: 'GET', route: '/api/sighting/{id}', status: 200, durationMs: 'number', subject: subjectOf(token),
      msg: 'request completed',
    });
  });

  it('when a change-feed stream ends, then its one line names the route template, its status and the caller, ' +
    'however much of its request the stream let go of once it started', async () => {
    const vesselId = await createVessel(service);
    const stream = await openEventStream(service, `/sighting/events?vesselId=${vesselId}`,
      { token, headers: { 'X-Request-Id': 'stream-1' } });
    try {
      // The filter, from the request's query, still holds once the stream has started.
      const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
      await stream.until(({ events }) => events.length >= 1);
      expect(dataOf(stream.events[0]!).id).to.equal(id);
      expect(log.lines.filter((line) => line.requestId === 'stream-1'), 'no line while it lasts').to.deep.equal([]);
    } finally {
      stream.close();
    }
    expect(await lineOf('stream-1')).to.deep.include({ level: 30, method: 'GET', route: '/api/sighting/events',
      status: 200, subject: subjectOf(token), msg: 'request completed' });
  });

  it('when a request has no X-Request-Id, or one that is not well-formed, ' +
    'then a new UUID is made, returned and logged', async () => {
    for (const given of [undefined, 'has spaces in it', 'x'.repeat(129), 'quote"d']) {
      const response =
        await fetch(`${service.url}/health/live`, { headers: given === undefined ? {} : { 'X-Request-Id': given } });
      const id = response.headers.get('X-Request-Id') ?? '';

      expect(id, String(given)).to.match(uuid);
      const line = await lineOf(id);
      expect(line, String(given)).to.deep.include({ method: 'GET', route: '/health/live', status: 200 });
      expect(line, 'no caller on an open endpoint').to.not.have.property('subject');
    }
  });

  it('when a request is refused before routing, ' +
    'then its line still names the route template, not the raw path', async () => {
    const response = await fetch(`${service.api}/vessel/12345`, { headers: { 'X-Request-Id': 'no-token-1' } });

    expect(response.status).to.equal(401);
    expect(await lineOf('no-token-1')).to.deep.include({ level: 30, route: '/api/vessel/{id}', status: 401 });
  });

  it('when a request carries a token and a body, then neither appears anywhere in the log', async () => {
    const body = buildSighting();
    const response = await fetch(`${service.api}/sighting`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Request-Id': 'create-1' },
      body: JSON.stringify(body),
    });

    expect(response.status).to.equal(201);
    expect(await lineOf('create-1'))
      .to.deep.include({ method: 'POST', route: '/api/sighting', status: 201, subject: subjectOf(token) });
    const text = log.text();
    expect(text).to.not.include(token.split('.')[2]);
    expect(text).to.not.include(body.sightingMemo);
  });
});
