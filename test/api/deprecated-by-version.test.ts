// A deprecated operation on the wire (contract 1.2.0): GET /{resource}/{id}/versions/{version} answers as before, and
// each answer announces its deprecation (RFC 9745), its sunset (RFC 8594) and the changelog entry; each use is counted.
import { expect } from 'chai';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { createSighting, createTimezone, createVessel } from '../support/fixtures.ts';

const contract =
  parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { info: { version: string } };
// getTimezoneVersion, getVesselVersion, getSightingVersion in openapi.yaml: deprecated in 1.2.0 on 2026-11-27, sunset
// 2027-05-27.
const announced = {
  deprecation: `@${Date.UTC(2026, 10, 27) / 1000}`,
  sunset: 'Thu, 27 May 2027 00:00:00 GMT',
  link: '</changelog.md#contract-1.2.0>; rel="deprecation"; type="text/markdown"',
};
const none = { deprecation: null, sunset: null, link: null };
const headersOf = (response: Response) => ({
  deprecation: response.headers.get('deprecation'), sunset: response.headers.get('sunset'),
  link: response.headers.get('link'),
});
// Read from /metrics by hand: the route label holds `{id}`, which test/support/scrape.ts's label pattern stops at.
const uses = async (service: TestService, route: string) => {
  const series = `api_deprecated_uses_total{route="${route}",method="GET",element="operation"} `;
  return Number((await (await fetch(`${service.url}/metrics`)).text()).split('\n')
    .find((line) => line.startsWith(series))?.slice(series.length) ?? 0);
};
const create = { timezone: createTimezone, vessel: createVessel, sighting: createSighting };

describe('deprecated operations: a record at one version', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  for (const collection of ['timezone', 'vessel', 'sighting'] as const) {
    it(`when GET /${collection}/{id}/versions/{version} is asked, ` +
      `then it answers as before with Deprecation, Sunset and Link, and the use is counted`, async () => {
      const id = await create[collection](service);
      const route = `/${collection}/{id}/versions/{version}`;
      const before = await uses(service, route);
      const [read, history] = await Promise.all([
        rawRequest(service, 'GET', `/${collection}/${id}/versions/0`),
        rawRequest(service, 'GET', `/${collection}/${id}/versions`),
      ]);
      const [entry] = await history.json() as Array<{ record: unknown }>;
      // The answer is still the detail view as it was at that version, and the answer says what releases it follows.
      expect({ status: read.status, body: await read.json() as unknown, apiVersion: read.headers.get('api-version'),
        ...headersOf(read) })
        .to.deep.equal({ status: 200, body: entry!.record, apiVersion: contract.info.version, ...announced });
      expect(await uses(service, route)).to.equal(before + 1);
    });
  }

  it('when the deprecated operation answers 404 (no such version), ' +
    'then the 404 is as before and announces the deprecation too', async () => {
    const id = await createSighting(service);
    const route = '/sighting/{id}/versions/{version}';
    const before = await uses(service, route);
    const response = await rawRequest(service, 'GET', `/sighting/${id}/versions/5`);
    expect({ status: response.status, body: await response.json() as unknown, ...headersOf(response) })
      .to.deep.equal({ status: 404, body: { general: 'The record does not exist.' }, ...announced });
    expect(await uses(service, route)).to.equal(before + 1);
  });

  it('when the successor (the history filtered by version) is asked, ' +
    'then nothing is announced or counted', async () => {
    const id = await createSighting(service);
    const route = '/sighting/{id}/versions/{version}';
    const before = await uses(service, route);
    const answers = await Promise.all([`/sighting/${id}/versions?version=0`,
      `/sighting/${id}/versions`, `/sighting/${id}`]
      .map(async (path) => rawRequest(service, 'GET', path)));
    expect(answers.map((response) => ({ status: response.status, ...headersOf(response) }))).to.deep.equal([
      { status: 200, ...none }, { status: 200, ...none }, { status: 200, ...none }]);
    expect(await uses(service, route)).to.equal(before);
    expect(await uses(service, '/sighting/{id}/versions')).to.equal(0);
  });

  it('when the deprecation Link is followed, ' +
    'then the served changelog has the 1.2.0 entry, which lists the deprecated operations', async () => {
    const response = await fetch(`${service.url}/changelog.md`);
    expect(response.status).to.equal(200);
    const changelog = await response.text();
    // The anchor the Link names (#contract-1.2.0), then its entry up to the previous release's.
    expect(changelog).to.include('## <a id="contract-1.2.0"></a>1.2.0 ');
    const entry = changelog.slice(changelog.indexOf('## <a id="contract-1.2.0"></a>1.2.0 '),
      changelog.indexOf('## <a id="contract-1.1.1"></a>'));
    const deprecated = entry.slice(entry.indexOf('\n### Deprecated\n'), entry.indexOf('\n### Changed\n'));
    expect([...deprecated.matchAll(/^#### `GET` (\S+)$/gm)].map((m) => m[1])).to.deep.equal([
      '/timezone/{id}/versions/{version}', '/vessel/{id}/versions/{version}', '/sighting/{id}/versions/{version}',
    ]);
  });
});
