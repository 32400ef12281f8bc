// POST /{resource}/batch as an XML list document: each record read as a single create's XML body, all or none; the
// document read record by record as it arrives, within every XML body's limits.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

type Created = Array<Record<string, number>>;
const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

describe(`batch import in XML (${backend})`, function () {
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

  it('when the third record of an XML list is not well-formed, then 400 names it by position and nothing is stored',
    async () => {
      const name = unique('Mars/Cut');
      const record = (zone: string) => `<timezone><timezoneName>${zone}</timezoneName></timezone>`;
      const text = `<collection>${record(name)}${record(`${name}b`)}<timezone><timezoneName>x</timezone>`
        + `${record(`${name}c`)}</collection>`;
      const answer = await batch('timezone', text);
      expect(answer.status).to.equal(400);
      expect((answer.body as { records: Array<Record<string, unknown>> }).records
        .map(({ record, field, key }) => ({ record, field, key })))
        .to.deep.equal([{ record: 3, field: 'body', key: 'error.malformedXml' }]);
      const stored = await rawRequest(service, 'GET', `/timezone?timezoneName=${encodeURIComponent(name)}`);
      expect(await stored.json()).to.deep.equal([]);
    });

  it('when a record holds text beside its elements, then 400 names the record and the field', async () => {
    const text = '<collection><timezone><timezoneName>Mars/Ok</timezoneName></timezone>'
      + '<timezone>stray<timezoneName>Mars/Text</timezoneName></timezone></collection>';
    const answer = await batch('timezone', text);
    expect((answer.body as { records: Array<Record<string, unknown>> }).records
      .map(({ record, key }) => ({ record, key }))).to.deep.equal([{ record: 2, key: 'error.xml.mixedContent' }]);
  });

  describe('hostile XML is refused as a whole, wherever it stands in the list', () => {
    const zone = '<timezone><timezoneName>Mars/Hostile</timezoneName></timezone>';
    const laughs = '<!DOCTYPE collection [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>';
    const cases: Array<[string, string, number, string]> = [
      ['a DOCTYPE with entities (billion laughs)', `${laughs}<collection>${zone}</collection>`, 400,
        'error.xmlForbidden'],
      ['an external entity', '<!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><collection><timezone>'
        + '<timezoneName>&x;</timezoneName></timezone></collection>', 400, 'error.xmlForbidden'],
      ['a declaration after records', `<collection>${zone.repeat(3)}<!ENTITY x "y">${zone}</collection>`, 400,
        'error.xmlForbidden'],
      ['a declaration inside a record', `<collection>${zone}<timezone><!ELEMENT a ANY><timezoneName>Mars/X`
        + '</timezoneName></timezone></collection>', 400, 'error.xmlForbidden'],
      ['nesting deeper than any body may', `<collection>${zone}<timezone>${'<a>'.repeat(40)}${'</a>'.repeat(40)}`
        + '</timezone></collection>', 400, 'error.bodyTooDeep'],
      ['a second root element', `<collection>${zone}</collection><collection>${zone}</collection>`, 400,
        'error.malformedXml'],
      ['an unclosed root', `<collection>${zone}${zone}`, 400, 'error.malformedXml'],
      ['an encoding other than UTF-8', `<?xml version="1.0" encoding="ISO-8859-1"?><collection>${zone}</collection>`,
        415, 'UTF-8'],
    ];
    for (const [what, text, status, key] of cases) {
      it(`when the body holds ${what}, then ${status} (${key}) and nothing is stored`, async () => {
        const answer = await batch('timezone', text);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(status);
        // A 415 names no key, only its message (openapi.yaml UnsupportedMediaType).
        if (status === 400) expect(JSON.stringify(answer.body)).to.include(key);
        const stored = await rawRequest(service, 'GET', '/timezone?timezoneName=Mars%2FHostile');
        expect(await stored.json()).to.deep.equal([]);
      });
    }

    it('when a record names an entity no DTD declares, then 400 names that record', async () => {
      const answer = await batch('timezone', `<collection>${zone}<timezone><timezoneName>a&nbsp;b</timezoneName>`
        + '</timezone></collection>');
      expect((answer.body as { records: Array<Record<string, unknown>> }).records
        .map(({ record, key }) => ({ record, key }))).to.deep.equal([{ record: 2, key: 'error.malformedXml' }]);
    });
  });

  it('when the root is not <collection>, then 400 names the root the batch needs', async () => {
    const answer = await batch('timezone', '<timezone><timezoneName>x</timezoneName></timezone>');
    expect(answer).to.deep.equal({ status: 400, body: { body: {
      message: 'The XML document\'s root element must be <collection>.', key: 'error.xmlRoot' } } });
  });
});
