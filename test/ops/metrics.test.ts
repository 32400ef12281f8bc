// GET /metrics: Prometheus text with request, routing, pool and process metrics; open, or behind METRICS_TOKEN.
import { expect } from 'chai';
import { backend, sharedService, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';

/** The value of one sample, e.g. `http_requests_in_flight` or `x_total{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', function () {
  describe('without METRICS_TOKEN', () => {
    let service: TestService;
    before(async function () {
      service = await sharedService();
    });

    it('when /metrics is scraped after API calls, then it counts them by route template and status, ' +
      'with in-flight requests, routed reads and process metrics', async () => {
      const token = await tokenFor(service.realm, 'alice');
      const scrape = async () => (await fetch(`${service.url}/metrics`)).text();
      const read = '{method="GET",route="/api/sighting/{id}",status="200"}';
      const list = '{kind="list",target="primary"}';
      const before = await scrape();

      for (const path of ['/sighting/-1', '/sighting?limit=1']) {
        const answer = await fetch(`${service.api}${path}`, { headers: { Authorization: `Bearer ${token}` } });
        expect({ path, status: answer.status }).to.deep.equal({ path, status: 200 });
        await answer.text();
      }
      const response = await fetch(`${service.url}/metrics`);
      const after = await response.text();

      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
      expect(sample(after, `http_request_duration_seconds_count${read}`))
        .to.equal((sample(before, `http_request_duration_seconds_count${read}`) ?? 0) + 1);
      expect(sample(after, `db_reads_routed_total${list}`))
        .to.equal((sample(before, `db_reads_routed_total${list}`) ?? 0) + 1);
      // The scrape itself is in flight while it is answered.
      expect(sample(after, 'http_requests_in_flight')).to.be.at.least(1);
      expect(sample(after, 'process_cpu_user_seconds_total')).to.be.a('number');
      expect(after).to.include('# TYPE http_request_duration_seconds histogram');
      // No raw path (with its id) ever becomes a label.
      expect(after).to.not.include('route="/api/sighting/-1"');
    });

    it('when the database is PostgreSQL, ' +
      'then the primary pool reports used, idle and waiting connections, and its most', async function () {
      if (backend !== 'postgresql') return this.skip();
      const text = await (await fetch(`${service.url}/metrics`)).text();

      for (const state of ['used', 'idle', 'waiting']) {
        expect(sample(text, `db_pool_connections{pool="primary",state="${state}"}`), state)
          .to.be.a('number').and.at.least(0);
      }
      expect(sample(text, 'db_pool_max_connections{pool="primary"}')).to.equal(10);
    });

    it('when a record is read, then its SQL statement is timed by operation, and the build is named', async () => {
      const token = await tokenFor(service.realm, 'alice');
      const selects = 'db_statement_duration_seconds_count{operation="select",target="primary"}';
      const before = sample(await (await fetch(`${service.url}/metrics`)).text(), selects) ?? 0;
      expect((await fetch(`${service.api}/sighting/-1`, { headers: { Authorization: `Bearer ${token}` } })).status)
        .to.equal(200);
      const after = await (await fetch(`${service.url}/metrics`)).text();
      expect(sample(after, selects)).to.be.at.least(before + 1);
      expect(after)
        .to.match(/^sighting_registry_build_info\{version="1\.0\.0",commit="unknown",node="v24\.[\d.]+"\} 1$/m);
    });

    it('when many ids and unknown paths are asked, ' +
      'then the number of series does not grow with them (no id in a label)', async () => {
      const token = await tokenFor(service.realm, 'alice');
      const ask = async (round: number) => {
        for (let i = 0; i < 30; i += 1) {
          for (const path of [`/api/sighting/${round * 1000 + i}`, `/api/vessel/${round * 1000 + i}`,
            `/api/no-such-${round}-${i}`, `/nowhere/${round}/${i}`]) {
            await (await fetch(`${service.url}${path}`, { headers: { Authorization: `Bearer ${token}` } })).text();
          }
        }
      };
      const seriesCount = async () => (await (await fetch(`${service.url}/metrics`)).text()).split('\n')
        .filter((line) => line && !line.startsWith('#') && !/^(process|nodejs)_/.test(line)).length;
      // A first round makes every series these requests can make; a second with other ids and paths must make none.
      await ask(1);
      const first = await seriesCount();
      await ask(2);
      expect(await seriesCount()).to.equal(first);
    });
  });

  describe('with METRICS_TOKEN', () => {
    let service: TestService;
    const metricsToken = 'scrape-secret-0123456789';
    before(async function () {
      service = await startService({ METRICS_TOKEN: metricsToken });
    });
    after(async () => { await service?.stop(); });

    it('when /metrics is asked without the token or with another, ' +
      'then 401 with a Bearer challenge and no metrics', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${metricsToken}`,
        `Bearer ${metricsToken}x`]) {
        const response =
          await fetch(`${service.url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
        const text = await response.text();

        expect({ status: response.status, challenge: response.headers.get('WWW-Authenticate') }, authorization)
          .to.deep.equal({ status: 401, challenge: 'Bearer realm="metrics"' });
        expect(text).to.not.include('http_request');
      }
    });

    it('when /metrics is asked with the token, then 200 with the metrics; /health stays open', async () => {
      const response = await fetch(`${service.url}/metrics`, { headers: { Authorization: `Bearer ${metricsToken}` } });

      expect(response.status).to.equal(200);
      expect(await response.text()).to.include('# TYPE http_requests_in_flight gauge');
      expect((await fetch(`${service.url}/health/live`)).status).to.equal(200);
    });
  });
});
