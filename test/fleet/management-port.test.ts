// MANAGEMENT_PORT: health and metrics on a port of their own, and not on the public one.
import { expect } from 'chai';
import { Agent } from 'undici';
import { startService, type TestService } from '../support/service.ts';
import { stopWebServer } from '../../src/lifecycle/web-server.ts';
import { apiVersion } from '../../src/http/api-version.ts';

describe('management port', () => {
  let service: TestService;
  let management: string;
  before(async () => {
    service = await startService({ MANAGEMENT_PORT: '0' });
    management = service.web.management!.url;
  });
  after(async () => { await service?.stop(); });

  it('when MANAGEMENT_PORT is set, ' +
    'then health and metrics answer there and the public port answers 404 for them', async () => {
    const statuses = async (origin: string) => Promise.all(
      ['/health/live', '/health/ready', '/metrics'].map(async (path) => (await fetch(`${origin}${path}`)).status));
    expect({ management: await statuses(management), public: await statuses(service.url) })
      .to.deep.equal({ management: [200, 200, 200], public: [404, 404, 404] });
    expect(await (await fetch(`${management}/metrics`)).text()).to.include('http_request_duration_seconds');
  });

  it('when the management port is asked for the API or the web page, then 404', async () => {
    expect([(await fetch(`${management}/api/sighting`)).status, (await fetch(`${management}/`)).status])
      .to.deep.equal([404, 404]);
  });

  it('when the management port answers, found or not, ' +
    'then it names the contract release as every answer does (API-Version)', async () => {
    const answers =
      await Promise.all(['/health/live', '/metrics', '/nowhere'].map((path) => fetch(`${management}${path}`)));
    expect(answers.map((answer) => [answer.status, answer.headers.get('api-version')]))
      .to.deep.equal([[200, apiVersion], [200, apiVersion], [404, apiVersion]]);
  });

  it('when a stop begins, ' +
    'then readiness on the management port says 503 while the public port still answers', async () => {
    // Both checks run within the delay: the stop is only announced until it ends. 10 s: two requests on a loaded
    // machine, with room (2 s was a guess that a busy host could miss).
    const stopped = stopWebServer(service.web, { delayMs: 10_000 });
    const ready = await fetch(`${management}/health/ready`);
    // On a kept-alive connection of its own: the test process's fetch asks for Connection: close on every request.
    const page = await fetch(`${service.url}/openapi.yaml`, { dispatcher: new Agent() });
    // Read whole: a body left unread while the server closes the connection trips undici's parser.
    const contract = await page.text();
    expect({ ready: ready.status, body: await ready.json(), page: page.status,
      connection: page.headers.get('connection'), contract: contract.startsWith('openapi:') })
      .to.deep.equal({ ready: 503, body: { status: 'DOWN', reason: 'stopping' }, page: 200,
        connection: 'close', contract: true });
    await stopped;
  });
});
