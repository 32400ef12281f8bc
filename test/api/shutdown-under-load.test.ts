// SIGTERM under load: in-flight requests are answered, later answers close their connection, nothing is cut.
import { expect } from 'chai';
import { Agent, request, type IncomingMessage } from 'node:http';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting } from '../support/fixtures.ts';
import { stopWebServer } from '../../src/lifecycle/web-server.ts';
import { eventually } from '../support/condition.ts';

interface Outcome { status?: number; connection?: string; afterStop: boolean; endedAfterStop?: boolean; error?: string;
  reusedIdle?: boolean }

describe('shutdown under load', () => {
  let service: TestService;
  let stopped: Promise<unknown> | undefined;
  before(async () => { service = await startService({ SHUTDOWN_TIMEOUT_MS: '10000' }); });
  after(async () => {
    await stopped;
    await service.stop();
  });

  it('when the server is stopped while 8 keep-alive clients read and create, ' +
    'then no request is reset, every later answer says Connection: close, and none is cut', async () => {
    const token = await tokenFor(service.realm, 'alice');
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    let stopAt: number | undefined = undefined;
    const outcomes: Outcome[] = [];

    const send = (i: number) => new Promise<Outcome>((resolve) => {
      // Whether the request left after the stop: its answer must then close the connection.
      const afterStop = stopAt !== undefined;
      const post = i % 2 === 0;
      const body = post ? JSON.stringify(buildSighting()) : undefined;
      const sent = request(`${service.api}/sighting${post ? '' : '/-1'}`, {
        method: post ? 'POST' : 'GET', agent,
        headers: { Authorization: `Bearer ${token}`, ...(post && { 'Content-Type': 'application/json' }) },
      }, (response: IncomingMessage) => {
        response.resume().on('end', () => resolve({ status: response.statusCode,
          connection: response.headers.connection, afterStop, endedAfterStop: stopAt !== undefined }));
      });
      sent.on('error', (error: NodeJS.ErrnoException) => resolve({
        error: error.code ?? error.message, afterStop,
        // RFC 9112 §9.3.1: a connection may close while idle just as the client reuses it; no byte of this request was
        // read by the server, and a client retries it. Node flags exactly this case as a reused socket.
        reusedIdle: sent.reusedSocket,
      }));
      sent.end(body);
    });

    const worker = async (w: number) => {
      for (let i = w; ; i += 8) {
        const outcome = await send(i);
        outcomes.push(outcome);
        if (outcome.error === 'ECONNREFUSED') return;
        if (outcome.error && !outcome.reusedIdle) return;
      }
    };
    // Every client's connection is open and has been served once before the load starts: a connection still in the
    // kernel's accept queue when the listener closes is reset by the kernel, before the service ever saw it.
    await Promise.all(Array.from({ length: 8 }, (_, w) => send(w + 1)));
    const workers = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    // The load runs: every client has been answered again since it started.
    await eventually(() => outcomes.length >= 8 * 3, { what: 'answers under load' });
    stopAt = performance.now();
    stopped = stopWebServer(service.web);
    const { cut } = await stopped as { cut: number };
    const stopMs = performance.now() - stopAt;
    await workers;
    agent.destroy();

    const errors = outcomes.filter((o) => o.error);
    const summary = {
      answered: outcomes.filter((o) => o.status).length,
      inFlightAtStopAnswered: outcomes.filter((o) => o.status && !o.afterStop && o.endedAfterStop).length,
      answeredAfterStop: outcomes.filter((o) => o.status && o.afterStop).length,
      refusedNewConnections: errors.filter((o) => o.error === 'ECONNREFUSED').length,
      idleRaces: errors.filter((o) => o.error !== 'ECONNREFUSED' && o.reusedIdle).length,
      stopMs: Math.round(stopMs),
    };
    console.log(`      ${JSON.stringify(summary)}`);
    expect({
      cut,
      // Only new connections are refused after the stop, and no request the service had read is reset. Left out: a
      // request written on a kept-alive connection at the instant it was closed as idle, which the service never read
      // (RFC 9112 §9.3.1: the client retries it); counted as idleRaces in the summary.
      resets: errors.filter((o) => o.error !== 'ECONNREFUSED' && !o.reusedIdle),
      statuses: [...new Set(outcomes.filter((o) => o.status).map((o) => o.status))].sort(),
      withoutClose: outcomes.filter((o) => o.status && o.afterStop && o.connection !== 'close').length,
      stoppedBeforeTimeout: stopMs < 10_000,
    }).to.deep.equal({ cut: 0, resets: [], statuses: [200, 201], withoutClose: 0, stoppedBeforeTimeout: true });
    // The requests in flight at the stop were answered, each telling its client to close.
    expect(summary.inFlightAtStopAnswered).to.be.above(0);
  });
});
