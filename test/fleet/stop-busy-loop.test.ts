// SIGTERM while the service's event loop is busy: requests that reached it before its listener closed, but that it
// had not read yet (on new connections still in the kernel's accept queue, or on kept-alive ones), are answered, not
// reset; and the stop's log line counts as cut exactly the requests its clients saw cut.
import { expect } from 'chai';
import { Agent, request, type IncomingMessage } from 'node:http';
import { backend } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting } from '../support/fixtures.ts';
import { eventually } from '../support/condition.ts';
import { inspect, type Inspector } from '../support/inspector.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening, type ServiceProcess } from '../support/service-process.ts';

interface Outcome {
  what: string;
  status?: number;
  connection?: string;
  retryAfter?: string;
  requestId?: string;
  body?: string;
  /** The answer began and then ended in an error: a cut. */
  cut?: boolean;
  error?: string;
}

// The announced window, in which the test occupies the loop and writes its 40 requests: on a CI machine whose cores
// were all busy, that took 2.4 s of a 1.5 s window. Shorter than the server's keep-alive timeout (5 s) less the time
// from the warm-up to the signal: held past it, the loop would run that timer before reading the requests waiting on
// the kept-alive connections, and reset them (seen with a 5 s window; docs/testing.md#on-a-loaded-machine).
const delayMs = 3000;
// The creates in flight at SIGTERM are twice the pool (10), some on connections still being opened (TLS through
// PgBouncer) when the test holds the loop for the window: a wait for a free connection or a connect bounded by the
// window's length would be given up after it (503 stopping, rightly; two creates once in CI). Here they outlast it.
const connectionWaitMs = String(4 * delayMs);
const stopping = JSON.stringify({ general: 'This instance is stopping; please try again, another one will answer.' });

describe('SIGTERM while the event loop is busy @pgbouncer', function () {
  // Up to three runs of the scenario (stopWhileBusyInWindow), each up to 75 s on a loaded machine.
  this.timeout(600_000);
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess | undefined;
  let inspector: Inspector | undefined;
  async function cleanUp(): Promise<void> {
    inspector?.close();
    service?.child.kill('SIGKILL');
    await service?.exited;
    await scratch?.drop();
    [inspector, service, scratch] = [undefined, undefined, undefined];
  }
  afterEach(cleanUp);

  /**
   * Creates in flight at SIGTERM; then, with the loop busy until `busyUntil` ms after the announced window's end,
   * reads on kept-alive connections, reads on new ones and creates on new ones. Says what the clients saw and the
   * stop's log line.
   */
  async function stopWhileBusy(env: Record<string, string>, busyUntil: number) {
    scratch = backend === 'postgresql' ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    service = spawnService({
      LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: String(delayMs), DEMO_DATA: 'true',
      DB_ACQUIRE_TIMEOUT_MS: connectionWaitMs, DB_CONNECT_TIMEOUT_MS: connectionWaitMs, ...env,
      ...scratch?.env, ...(process.env.KEYCLOAK_URL && { KEYCLOAK_URL: process.env.KEYCLOAK_URL }),
    }, ['--inspect=127.0.0.1:0']);
    const { url, api } = await listening(service);
    inspector = await inspect(service);
    const realm = process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting` : `${url}/realms/sighting`;
    const authorization = `Bearer ${await tokenFor(realm, 'alice')}`;

    let written = 0;
    const send = (what: string, agent: Agent | false, create: boolean) => new Promise<Outcome>((resolve) => {
      const sent = request(`${api}/sighting${create ? '' : '/-1'}`, {
        method: create ? 'POST' : 'GET', agent,
        headers: { Authorization: authorization, ...(create && { 'Content-Type': 'application/json' }) },
      }, (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({
          what, status: response.statusCode, connection: response.headers.connection,
          retryAfter: response.headers['retry-after'], requestId: response.headers['x-request-id'] as string,
          body: Buffer.concat(chunks).toString('utf8'),
        })).on('error', (error: NodeJS.ErrnoException) =>
          resolve({ what, status: response.statusCode, cut: true, error: error.code ?? error.message }));
      });
      // Written: the whole request is with the kernel, on its way to the service.
      sent.on('finish', () => { written += 1; });
      sent.on('error', (error: NodeJS.ErrnoException) => resolve({ what, error: error.code ?? error.message }));
      sent.end(create ? JSON.stringify(buildSighting()) : undefined);
    });

    // Ten connections served once and then idle, as a balancer's pool keeps them.
    const kept = new Agent({ keepAlive: true, maxSockets: 10 });
    const warm = await Promise.all(Array.from({ length: 10 }, () => send('warm-up', kept, false)));
    expect(warm.map((o) => o.status)).to.deep.equal(Array(10).fill(200));
    expect(Object.values(kept.freeSockets).flat()).to.have.length(10);

    const creates = new Agent({ keepAlive: true, maxSockets: 20 });
    const outcomes: Promise<Outcome>[] =
      Array.from({ length: 20 }, () => send('create in flight at SIGTERM', creates, true));
    service.child.kill('SIGTERM');
    const signalled = await service.lineWhere((line) => line.signal === 'SIGTERM' && line.delayMs === delayMs);
    // The window the service announced, by its own clock: until then its listener accepts.
    const windowEnds = (signalled.time as number) + delayMs;

    // The creates' own connections may still be busy: these are sent on connections of their own.
    const later = new Agent({ keepAlive: true, maxSockets: 20 });
    const occupied = await inspector.occupy();
    written = 0;
    outcomes.push(
      ...Array.from({ length: 10 }, () => send('read on a kept-alive connection', kept, false)),
      ...Array.from({ length: 10 }, () => send('read on a new connection', false, false)),
      ...Array.from({ length: 20 }, () => send('create sent in the window', later, true)));
    await eventually(() => written === 40, { what: 'every request written while the loop is busy' });
    const sentInWindow = Date.now() < windowEnds;
    // The loop stays busy past the window's end: the stop then begins before the service has read them.
    await eventually(() => Date.now() > windowEnds + busyUntil, { what: 'the announced window to end' });
    await occupied.release();
    // A process with a debugger attached waits for it to leave before it exits.
    inspector.close();

    const seen = await Promise.all(outcomes);
    for (const agent of [kept, creates, later]) agent.destroy();
    expect(await service.exited).to.equal(0);
    const stopped = await service.lineWhere((line) => typeof line.cut === 'number');
    const counts = Object.groupBy(seen, (o) => `${o.what}: ${o.status ?? o.error}${o.cut ? ' cut' : ''}`);
    console.log(`      ${JSON.stringify(Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v!.length])))}`);
    return { seen, loggedCut: stopped.cut, sentInWindow };
  }

  /**
   * `stopWhileBusy` where the test's own requests were all written within the announced window, the scenario's
   * premise: on a machine whose cores are all busy the test process itself was once late by 57 ms, and the run then
   * tests another scenario. Such a run is made again, on a new service, up to three times in all.
   */
  async function stopWhileBusyInWindow(env: Record<string, string>, busyUntil: number) {
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await stopWhileBusy(env, busyUntil);
      if (outcome.sentInWindow || attempt === 3) {
        expect(outcome.sentInWindow, 'the requests were sent within the announced window').to.equal(true);
        return outcome;
      }
      await cleanUp();
    }
  }

  /** No reset; every answer 2xx or 503 stopping, and closing its connection; the log's cut count is the clients'. */
  function expectPromisesKept({ seen, loggedCut }: Awaited<ReturnType<typeof stopWhileBusy>>): void {
    expect({
      resets: seen.filter((o) => o.error && !o.cut),
      unexpected: seen.filter((o) => !o.cut && !(o.status === 200 || o.status === 201
        || (o.status === 503 && o.retryAfter === '1' && o.requestId && o.body === stopping))),
      // Every request here but the first creates was read after the announcement: its answer closes its connection.
      withoutClose: seen.filter((o) => o.what !== 'create in flight at SIGTERM' && o.status && o.connection !== 'close')
        .length,
      loggedCut,
    }).to.deep.equal({ resets: [], unexpected: [], withoutClose: 0, loggedCut: seen.filter((o) => o.cut).length });
  }

  it('when creates are in flight and creates and reads arrive, on new and kept-alive connections, while the loop is ' +
    'busy as the announced window ends, then none is reset and each is answered', async () => {
    const outcome = await stopWhileBusyInWindow({}, 0);
    expectPromisesKept(outcome);
    expect([...new Set(outcome.seen.map((o) => o.status))].sort()).to.deep.equal([200, 201]);
  });

  it('when the loop is busy past the stop\'s timeout too, then what could not finish is answered 503 stopping with ' +
    'Retry-After, none is reset, and the log counts as cut exactly what the clients saw cut', async () => {
    expectPromisesKept(await stopWhileBusyInWindow({ SHUTDOWN_TIMEOUT_MS: '50' }, 100));
  });
});
