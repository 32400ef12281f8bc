// Contract releases on the wire (docs/contract-releases.md): `API-Version` on every answer; a deprecated part of the
// contract, used, is answered with Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to its changelog entry, and
// counted.
import { expect } from 'chai';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { createSighting } from '../support/fixtures.ts';

const contract =
  parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { info: { version: string } };
const mergePatch = (extra: Record<string, string> = {}) =>
  ({ 'Content-Type': 'application/merge-patch+json', ...extra });
// PatchVersion in openapi.yaml: deprecated in 1.1.0 on 2026-11-26, sunset 2027-05-31.
const announced = {
  deprecation: `@${Date.UTC(2026, 10, 26) / 1000}`,
  sunset: 'Mon, 31 May 2027 00:00:00 GMT',
  link: '</changelog.md#contract-1.1.0>; rel="deprecation"; type="text/markdown"',
};
const headersOf = (response: Response) => ({
  deprecation: response.headers.get('deprecation'), sunset: response.headers.get('sunset'),
  link: response.headers.get('link'),
});
// Read from /metrics by hand: the route label holds `{id}`, which test/support/scrape.ts's label pattern stops at.
const series = 'api_deprecated_uses_total{route="/sighting/{id}",method="PATCH",element="property version"} ';
const uses = async (service: TestService) => Number((await (await fetch(`${service.url}/metrics`)).text())
  .split('\n').find((line) => line.startsWith(series))?.slice(series.length) ?? 0);

describe('contract releases: API-Version and deprecations', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when anything is asked (API, contract, unknown path, error), ' +
    'then the answer carries API-Version: info.version', async () => {
    const answers = await Promise.all([
      rawRequest(service, 'GET', '/sighting/-1'), rawRequest(service, 'GET', '/sighting/no-such-id'),
      fetch(`${service.url}/openapi.yaml`), fetch(`${service.url}/no-such-page`),
    ]);
    expect(answers.map((r) => [r.status, r.headers.get('api-version')])).to.deep.equal([
      [200, contract.info.version], [404, contract.info.version], [200, contract.info.version],
      [404, contract.info.version]]);
    expect(await answers[2]!.text())
      .to.match(new RegExp(`^ {2}version: ${contract.info.version.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('when a patch states its version in the body (deprecated), ' +
    'then Deprecation, Sunset and Link announce it and the use is counted', async () => {
    const id = await createSighting(service);
    const before = await uses(service);
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch(), body: JSON.stringify({ version: 0, sightingMemo: 'still works' }) });
    expect({ status: response.status, ...headersOf(response) }).to.deep.equal({ status: 204, ...announced });
    expect(await uses(service)).to.equal(before + 1);
  });

  it('when a patch states its version with If-Match (the successor), ' +
    'then nothing is announced or counted', async () => {
    const id = await createSighting(service);
    const before = await uses(service);
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`,
      { headers: mergePatch({ 'If-Match': '"0"' }), body: JSON.stringify({ sightingMemo: 'the new way' }) });
    expect({ status: response.status, ...headersOf(response) })
      .to.deep.equal({ status: 204, deprecation: null, sunset: null, link: null });
    expect(await uses(service)).to.equal(before);
  });

  it('when a list names its view (`view`, deprecated in 2.2.0: the operation says it), then it is answered in that ' +
    'view with Deprecation and Sunset, its Link the next page\'s alone (as a page declares it)', async () => {
    const answers = await Promise.all(['/vessel?view=detail&limit=1', '/vessel/detail-view?view=detail&limit=1',
      '/vessel?limit=1'].map((path) => rawRequest(service, 'GET', path)));
    const since = `@${Date.UTC(2026, 10, 29) / 1000}`;
    const sunset = 'Sat, 29 May 2027 00:00:00 GMT';
    expect(await Promise.all(answers.map(async (r) => [r.status, r.headers.get('deprecation'), r.headers.get('sunset'),
      /^<[^>]+>; rel="next"$/.test(r.headers.get('link') ?? ''),
      Object.keys((await r.json() as Array<Record<string, unknown>>)[0]!).includes('version')]))).to.deep.equal([
      [200, since, sunset, true, true], [200, since, sunset, true, true], [200, null, null, true, false]]);
  });

  it('when the deprecation Link is followed, then the changelog has the entry it names', async () => {
    const response = await fetch(`${service.url}/changelog.md`);
    expect([response.status, response.headers.get('content-type')])
      .to.deep.equal([200, 'text/markdown; charset=utf-8']);
    expect(await response.text()).to.include('<a id="contract-1.1.0"></a>1.1.0');
  });
});
