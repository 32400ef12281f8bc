// When the database goes away the service answers 503 (not 500), and recovers by itself when it is back.
import { expect } from 'chai';
import { backend, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { serviceBehindProxy, type ProxiedService, type TcpProxy } from '../support/tcp-proxy.ts';

const unavailable = { general: 'The database is not available; please try again later.' };

describe('database down', function () {
  let proxied: ProxiedService | undefined;
  let proxy: TcpProxy;
  let service: TestService;

  before(async function () {
    // An embedded database (PGlite) lives inside the process and cannot go down; only PostgreSQL can.
    if (backend !== 'postgresql') return this.skip();
    proxied = await serviceBehindProxy();
    ({ proxy, service } = proxied);
    // Tokens come from the service's embedded provider (or Keycloak), which needs no database; fetch them up front
    // anyway.
    await tokenFor(service.realm, 'alice');
  });

  after(async () => {
    await proxied?.close();
  });

  async function answer(path: string) {
    const response = await rawRequest(service, 'GET', path);
    return { status: response.status, retryAfter: response.headers.get('Retry-After'),
      body: await response.json() as unknown };
  }

  it('when the database connection is cut, then reads are 503 with a general message, readiness is 503, ' +
    'and after it is back the service answers again', async () => {
    expect((await answer('/sighting/-1')).status).to.equal(200);

    await proxy.cut();
    try {
      expect(await answer('/sighting')).to.deep.equal({ status: 503, retryAfter: '5', body: unavailable });
      expect(await answer('/sighting/-1')).to.deep.equal({ status: 503, retryAfter: '5', body: unavailable });
      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).to.equal(503);
      expect(await ready.json()).to.deep.include({ status: 'DOWN' })
        .and.to.have.nested.property('components.database', 'DOWN');
    } finally {
      await proxy.restore();
    }

    // The pool reconnects on demand: bounded retries, as a client honouring Retry-After would.
    let last: { status: number } | undefined;
    for (let attempt = 0; attempt < 20 && last?.status !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      last = await answer('/sighting/-1');
    }
    expect(last).to.deep.include({ status: 200 });
    expect((await answer('/sighting')).status).to.equal(200);
    expect((await fetch(`${service.url}/health/ready`)).status).to.equal(200);
  });
});
