// POST /{resource}/batch as an XML list document: each record read as a single create's XML body, all or none.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

type Created = Array<Record<string, number>>;
const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

describe(`batch import in XML (${backend})`, function () {
  this.timeout(120_000);
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function batch(resource: string, body: string, user: User = 'admin') {
    const response = await rawRequest(service, 'POST', `/${resource}/batch`,
      { user, body, headers: { 'Content-Type': 'text/xml', Accept: 'application/json' } });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
  }

  const read = async (path: string) =>
    (await rawRequest(service, 'GET', path, { user: 'admin' })).json() as Promise<Record<string, unknown>>;

  it('when vessels come as an XML list with language maps, then each reads back with its names', async () => {
    const [en, de] = [unique('Falke <&>'), unique('Jäger 🚀')];
    const text = `<collection><vessel><vesselId>-1</vesselId><version>3</version><vesselName>`
      + `<text xml:lang="en">${escaped(en)}</text><text xml:lang="de">${escaped(de)}</text></vesselName></vessel>`
      + `<vessel><vesselName><text xml:lang="en">${escaped(en)}</text></vesselName></vessel></collection>`;
    const answer = await batch('vessel', text);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const ids = (answer.body as Created).map((record) => record.vesselId!);
    expect((await read(`/vessel/${ids[0]}`)).vesselName).to.deep.equal({ en, de });
    expect((await read(`/vessel/${ids[1]}`)).vesselName).to.deep.equal({ en });
  });

  it('when sightings come as an XML list, then numbers are typed as in a single create and each is stored',
    async () => {
      const memo = unique('xml');
      const sighting = `<sighting><sightingMemo>${memo}</sightingMemo><vessel><vesselId>-2</vesselId>`
        + '<vesselName>ignored</vesselName></vessel><sightingDate>2026-11-22T21:30</sightingDate></sighting>';
      const answer = await batch('sighting', `<collection>${sighting}${sighting}</collection>`, 'alice');
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      const ids = (answer.body as Created).map((record) => record.sightingId!);
      for (const id of ids) {
        expect(await read(`/sighting/${id}`)).to.containSubset({ sightingMemo: memo, vessel: { vesselId: -2 },
          sightingDate: '2026-11-22T21:30:00.000' });
      }
    });

  it('when the second record of an XML list breaks a rule, then 400 names it and nothing is stored', async () => {
    const name = unique('Mars/Xml');
    const text = `<collection><timezone><timezoneName>${name}</timezoneName></timezone>`
      + '<timezone><timezoneName></timezoneName></timezone></collection>';
    const answer = await batch('timezone', text);
    expect(answer.status).to.equal(400);
    expect((answer.body as { records: Array<Record<string, unknown>> }).records
      .map(({ record, field }) => ({ record, field }))).to.deep.equal([{ record: 2, field: 'timezoneName' }]);
    const stored = await rawRequest(service, 'GET', `/timezone?timezoneName=${encodeURIComponent(name)}`);
    expect(await stored.json()).to.deep.equal([]);
  });

  it('when the root is not <collection>, then 400 names the root the batch needs', async () => {
    const answer = await batch('timezone', '<timezone><timezoneName>x</timezoneName></timezone>');
    expect(answer).to.deep.equal({ status: 400, body: { body: {
      message: 'The XML document\'s root element must be <collection>.', key: 'error.xmlRoot' } } });
  });
});
