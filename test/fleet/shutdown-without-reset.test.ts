// SIGTERM as an orchestrator sends it, under keep-alive load: readiness says 503 at once, the listener keeps accepting
// for SHUTDOWN_DELAY_MS, every later answer says Connection: close, idle connections are closed, and no request is
// reset.
import { expect } from 'chai';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { backend } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening, type ServiceProcess } from '../support/service-process.ts';

interface Outcome { status?: number; connection?: string; sentAfterSignal: boolean; error?: string }

const clients = 20;

describe('SIGTERM under keep-alive load @pgbouncer', () => {
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess;
  after(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await scratch?.drop();
  });

  it(`when ${clients} keep-alive clients send while SIGTERM arrives, ` +
    `then until the balancer has seen readiness 503 none is reset or refused, each later answer says Connection: ` +
    `close, and the idle connection is closed`, async () => {
    scratch = backend === 'postgresql' ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    service = spawnService({
      LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '5000', DEMO_DATA: 'true',
      ...scratch?.env, ...(process.env.KEYCLOAK_URL && { KEYCLOAK_URL: process.env.KEYCLOAK_URL }),
    });
    const { url, api } = await listening(service);
    const realm = process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting` : `${url}/realms/sighting`;
    const token = await tokenFor(realm, 'alice');

    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    const outcomes: Outcome[] = [];
    let signalled = false;
    let balancerNoticed = false;
    const send = () => new Promise<Outcome>((resolve) => {
      const sentAfterSignal = signalled;
      request(`${api}/sighting/-1`, { agent, headers: { Authorization: `Bearer ${token}` } },
        (response: IncomingMessage) => {
        response.resume().on('end',
          () => resolve({ status: response.statusCode, connection: response.headers.connection, sentAfterSignal }));
      }).on('error',
      (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, sentAfterSignal })).end();
    });
    // A balancer's view: it sends until its readiness check has seen 503, then sends this instance nothing more.
    const client = async () => {
      while (!balancerNoticed) {
        const outcome = await send();
        outcomes.push(outcome);
        if (outcome.error) return;
      }
    };
    const load = Promise.all(Array.from({ length: clients }, client));

    // One more connection, served once and then left idle: the stop must close it, not leave it to the client.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const idleSocket = await new Promise<Socket>((resolve, reject) => {
      const sent = request(`${url}/health/live`, { agent: idleAgent },
        (response) => response.resume().on('end', () => resolve(sent.socket!)));
      sent.on('error', reject).end();
    });
    const idleClosed = new Promise<string>((resolve) =>
      idleSocket.once('close', (hadError) => resolve(hadError ? 'with an error' : 'cleanly')));

    // Some answers before the signal, so the load is under way on every connection.
    while (outcomes.length < 5 * clients && !outcomes.some((o) => o.error))
      await new Promise((resolve) => setImmediate(resolve));
    service.child.kill('SIGTERM');
    let readiness = 0;
    while (readiness !== 503) {
      readiness = await fetch(`${url}/health/ready`).then((response) => response.status, () => -1);
      if (readiness === -1) break;
    }
    // From here the service has taken the signal (its readiness says so): a request sent before it handled the
    // signal may still be answered as any other, one sent now must be told Connection: close.
    signalled = true;
    // The balancer notices only after answers to requests sent after the signal came back on every client.
    while (outcomes.filter((o) => o.sentAfterSignal).length < 2 * clients && !outcomes.some((o) => o.error)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    balancerNoticed = true;
    await load;
    agent.destroy();

    const afterSignal = outcomes.filter((o) => o.sentAfterSignal);
    expect({
      readiness,
      errors: outcomes.filter((o) => o.error).map((o) => o.error),
      statuses: [...new Set(outcomes.map((o) => o.status))],
      afterSignalWithoutClose: afterSignal.filter((o) => o.connection !== 'close').length,
    }).to.deep.equal({ readiness: 503, errors: [], statuses: [200], afterSignalWithoutClose: 0 });
    expect(afterSignal.length).to.be.at.least(2 * clients);
    expect(await idleClosed).to.equal('cleanly');
    expect(await service.exited).to.equal(0);
    const refused = await fetch(`${url}/health/live`)
      .then(() => 'answered', (error: Error & { cause?: { code?: string } }) => error.cause?.code);
    expect(refused, 'after the stop, nothing listens').to.equal('ECONNREFUSED');
  });
});
