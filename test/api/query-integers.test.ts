// Integer query parameters are read as whole-number texts: no number spelling slips past their bounds.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';

const limitRange = { limit: { message: 'The page size must lie between 1 and 1000.', key: 'error.limit.range' } };
const idInvalid = (field: string) =>
  ({ [field]: { message: 'An id must be a whole number.', key: 'error.id.invalid' } });
const versionInvalid =
  { version: { message: 'The version must be a whole number from 0.', key: 'error.version.invalid' } };

describe('integer query parameters', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function get(path: string) {
    const response = await rawRequest(service, 'GET', path);
    return { status: response.status, body: await response.json() as unknown };
  }

  for (const limit of ['Infinity', '-Infinity', '1e309', '1e3', '0x10', '1.0', '+5', '%205', 'NaN']) {
    it(`when limit is ${limit}, then it is the 400 that 1001 gets`, async () => {
      expect(await get(`/sighting?limit=${limit}`)).to.deep.equal({ status: 400, body: limitRange });
    });
  }

  for (const [parameter, path] of [['after', '/sighting'], ['sightingId', '/sighting'], ['vesselId', '/vessel'],
    ['timezoneId', '/timezone']] as const) {
    for (const value of ['Infinity', '1e309', '-1e400', '1.5']) {
      it(`when ${parameter} is ${value}, then it is a 400 on ${parameter}, not a query`, async () => {
        expect(await get(`${path}?${parameter}=${value}`)).to.deep.equal({ status: 400, body: idInvalid(parameter) });
      });
    }
  }

  for (const version of ['Infinity', '1e309', '1e0']) {
    it(`when version is ${version}, then it is a 400 on version`, async () => {
      expect(await get(`/sighting?version=${version}`)).to.deep.equal({ status: 400, body: versionInvalid });
    });
  }

  it('when a whole number is beyond the id range, then it is the range error, as before', async () => {
    expect(await get('/sighting?after=99999999999999999999')).to.deep.equal({
      status: 400, body: { after: { message: 'An id must lie between -9007199254740991 and 9007199254740991.',
        key: 'error.id.range' } },
    });
  });

  // 310 digits: a whole number as text, Infinity as a JavaScript number.
  const huge = `1${'0'.repeat(309)}`;
  const idRange = (field: string) =>
    ({ [field]: { message: 'An id must lie between -9007199254740991 and 9007199254740991.', key: 'error.id.range' } });
  for (const [query, body] of [
    [`after=${huge}`, idRange('after')],
    [`after=-${huge}`, idRange('after')],
    [`sightingId=${huge}`, idRange('sightingId')],
    [`vesselId=-${huge}`, idRange('vesselId')],
    [`version=${huge}`, versionInvalid],
    ['version=2147483648', versionInvalid],
    [`limit=${huge}`, limitRange],
  ] as const) {
    it(`when ${query.slice(0, query.indexOf('=') + 4)}… (${query.length - query.indexOf('=') - 1} characters) ` +
      `is sent, then it is a 400 on that parameter, not a query`, async () => {
      expect(await get(`/sighting?${query}`)).to.deep.equal({ status: 400, body });
    });
  }

  it('when limit and after are plain whole numbers, then the page is answered', async () => {
    const response = await rawRequest(service, 'GET', '/sighting?limit=1&after=-2');
    expect({ status: response.status, body: await response.json() }).to.deep.equal({
      status: 200, body: [{ sightingId: -1, vessel: { vesselId: -1, vesselName: 'Klingon Warbird' },
        sightingTimezone: null, sightingDate: null }],
    });
  });
});
