// A stopping instance answers what it cannot finish with 503, Retry-After and "the instance is stopping", never with
// "the database is not available": a request whose body never completes, and on PostgreSQL a list the database ends.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { samples } from '../support/scrape.ts';
import { eventually } from '../support/condition.ts';
import { stopWebServer } from '../../src/lifecycle/web-server.ts';
import { apiVersion } from '../../src/http/api-version.ts';

/** Sends `head` on a connection of its own (no FIN: the request stays in flight) and collects what comes back. */
function openRequest(url: string, head: string): { socket: Socket; answer: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  const answer =
    new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
  socket.on('error', () => undefined);
  socket.write(head);
  return { socket, answer };
}

/** Status, the headers that matter here, and the body of a raw answer. */
function outcome(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
  return {
    status: Number(head.split(' ')[1]), retryAfter: header('Retry-After'), apiVersion: header('API-Version'),
    connection: header('Connection'),
    body: body && JSON.parse(body),
  };
}

describe('shutdown: the instance is stopping', () => {
  let service: TestService;
  let stopped: Promise<unknown> | undefined;
  afterEach(async () => {
    await stopped;
    await service?.stop();
  });

  const inFlight = async () => (await samples(service.url, 'http_requests_in_flight')).get('') ?? 0;

  it('when a request is still in flight (its body half-sent) as the stop\'s time runs out, '
    + 'then 503 with Retry-After and the stopping message, in the client\'s language', async () => {
    service = await startService({ SHUTDOWN_TIMEOUT_MS: '300' });
    const token = await tokenFor(service.realm, 'alice');
    const { answer } = openRequest(service.url, `POST ${new URL(service.api).pathname}/sighting HTTP/1.1\r\nHost: x\r\n`
      + `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept-Language: de\r\nContent-Length: `
      + `100\r\n\r\n{"sighting`);
    // This scrape is one request in flight; the half-sent one the other.
    await eventually(async () => (await inFlight()) >= 2);
    stopped = stopWebServer(service.web);
    expect(outcome(await answer)).to.deep.equal({
      status: 503, retryAfter: '1', apiVersion, connection: 'close',
      body: { general: 'Diese Instanz wird gerade beendet; bitte erneut versuchen, eine andere antwortet.' },
    });
    expect(await stopped).to.deep.equal({ cut: 0 });
  });

  it('when the database ends a list\'s statement while the instance stops, '
    + 'then 503 with the stopping message, not "the database is not available"', async function () {
    if (backend !== 'postgresql') this.skip();
    service = await startService({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const token = await tokenFor(service.realm, 'alice');
    const databaseUrl = service.web.config.DATABASE_URL!;
    const locker = new pg.Client({ connectionString: databaseUrl });
    // Watched from a session of its own: inside the locker's transaction, pg_stat_activity is one snapshot, taken at
    // its first read, and a first look before the list waited never saw it wait (once in CI).
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    await watcher.connect();
    try {
      // The list waits for this lock: it is in flight, its answer not begun, when the stop starts.
      await locker.query('begin; lock table sighting in access exclusive mode');
      const list = fetch(`${service.api}/sighting`, { headers: { Authorization: `Bearer ${token}` } });
      const waiting = await eventually(async () => (await watcher.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() '
          + `and wait_event_type = 'Lock' and pid <> pg_backend_pid()`)).rows[0]);
      stopped = stopWebServer(service.web);
      // What an operator's restart of the database, or a failover, does to the statement meanwhile: 57P01.
      await locker.query('select pg_terminate_backend($1)', [waiting.pid]);
      const response = await list;
      expect({ status: response.status, retryAfter: response.headers.get('Retry-After'), body: await response.json() })
        .to.deep.equal({
        status: 503, retryAfter: '1',
        body: { general: 'This instance is stopping; please try again, another one will answer.' },
      });
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
      await watcher.end();
    }
  });
});
