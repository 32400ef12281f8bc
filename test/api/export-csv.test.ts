// Lists and queries by example as CSV (docs/api.md#export): RFC 4180 with the view's columns, the same rows, filters,
// order, pages, counts and roles as the JSON list, a download's file name, errors in JSON.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createTimezone, createVessel, unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

const csv = { Accept: 'text/csv' };

describe('export as CSV', () => {
  let service: TestService;
  let vesselId: number;
  const word = unique('csv').replace(/\W/g, '');
  const memos = [`${word} plain`, `${word} "quoted", with comma`, `${word} two\r\nlines\nand one`,
    `${word} Grüße aus Köln 🚀🛸`];
  const ids: number[] = [];
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service, { vesselName: { en: `${word} ship, "the" one`, de: `${word} Schiff` } });
    const dates = ['2026-05-03T10:00', '2026-05-01T10:00', '2026-05-04T10:00', '2026-05-02T10:00'];
    for (const [i, sightingMemo] of memos.entries()) {
      ids.push(await createSighting(service, buildSighting({ vessel: { vesselId }, sightingMemo,
        sightingDate: dates[i], sightingTimezone: i === 0 ? 'Europe/Berlin' : undefined })));
    }
  });

  async function get(path: string, options: { user?: User | null; headers?: Record<string, string>; method?: string;
    body?: unknown } = {}) {
    return rawRequest(service, options.method ?? 'GET', path, { user: options.user,
      headers: { ...csv, 'Content-Type': 'application/json', ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  }

  /** The CSV's rows as records keyed by the header's names; every cell a string. */
  async function records(response: Response): Promise<Record<string, string>[]> {
    expect(response.status, await response.clone().text()).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    return parse(await response.text(), { columns: true }) as Record<string, string>[];
  }

  it('when the sightings of a vessel are asked as CSV, then the header is the list view\'s columns, each row one ' +
    'sighting flattened, null empty, and the lines end with CRLF', async () => {
    const response = await get(`/sighting?vesselId=${vesselId}`);
    const text = await response.clone().text();
    expect(text.split('\r\n')[0])
      .to.equal('sightingId,vessel.vesselId,vessel.vesselName,sightingTimezone,sightingDate');
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(await records(response)).to.deep.equal(ids.map((sightingId, i) => ({
      sightingId: String(sightingId), 'vessel.vesselId': String(vesselId),
      'vessel.vesselName': `${word} ship, "the" one`,
      sightingTimezone: i === 0 ? 'Europe/Berlin' : '', sightingDate: `${['2026-05-03', '2026-05-01', '2026-05-04',
        '2026-05-02'][i]}T10:00:00.000` })));
  });

  it('when memos with commas, quotes, line breaks, umlauts and emoji are exported in the detail view, ' +
    'then csv-parse reads each back exactly, and only those fields are quoted', async () => {
    const response = await get(`/sighting?vesselId=${vesselId}&view=detail`);
    const text = await response.clone().text();
    expect(text).to.include(`,${word} plain,`).and.include(`,"${word} ""quoted"", with comma",`)
      .and.include(`,${word} Grüße aus Köln 🚀🛸,`);
    const rows = await records(response);
    expect(rows.map((row) => row.sightingMemo)).to.deep.equal(memos);
    expect(Object.keys(rows[0]!)).to.deep.equal(['version', 'sightingId', 'sightingMemo', 'vessel.version',
      'vessel.vesselId', 'vessel.vesselName', 'sightingTimezone', 'sightingDate']);
    expect(rows[0]).to.include({ version: '0', 'vessel.version': '0' });
  });

  it('when vessels are asked as CSV in the detail view, then each language is a column of its own, ' +
    'empty where a vessel has no text in it', async () => {
    const german = await createVessel(service, { vesselName: { de: `${word} nur deutsch` } });
    const rows = await records(await get(`/vessel/detail-view?sort=-vesselId&limit=2`, { user: 'admin' }));
    const header = Object.keys(rows[0]!);
    expect(header.slice(0, 2)).to.deep.equal(['version', 'vesselId']);
    expect(header).to.include.members(['vesselName.de', 'vesselName.en']);
    expect(header.filter((name) => !name.startsWith('vesselName.')).length).to.equal(2);
    const [newest, older] = rows;
    expect(newest).to.include({ vesselId: String(german), 'vesselName.de': `${word} nur deutsch`,
      'vesselName.en': '' });
    expect(older).to.include({ vesselId: String(vesselId), 'vesselName.en': `${word} ship, "the" one`,
      'vesselName.de': `${word} Schiff` });
  });

  it('when the vessels\' list view is asked as CSV, then the name is one column in the caller\'s language',
    async () => {
    const rows = await records(await get(`/vessel?vesselId=${vesselId}`, { headers: { 'Accept-Language': 'de' } }));
    expect(rows).to.deep.equal([{ vesselId: String(vesselId), vesselName: `${word} Schiff` }]);
  });

  it('when time zones are asked as CSV with a filter, then the header and the one matching row come', async () => {
    const name = unique('Test/Csv');
    const id = await createTimezone(service, { timezoneName: name });
    const list = await get(`/timezone?timezoneName=${encodeURIComponent(name)}`);
    expect(await records(list)).to.deep.equal([{ timezoneId: String(id), timezoneName: name }]);
    const detail = await get(`/timezone/detail-view?timezoneId=${id}`);
    expect(await records(detail)).to.deep.equal([{ version: '0', timezoneId: String(id), timezoneName: name }]);
  });

  it('when a query by example is asked as CSV with sort, a page and a count, then it answers the JSON\'s rows ' +
    'in that order, the count and the next page\'s link', async () => {
    const path = `/sighting/qbe?sort=sightingDate&limit=3`;
    const body = { sightingMemo: word };
    const response = await get(path, { method: 'POST', body, headers: { Prefer: 'count=exact' } });
    expect(response.headers.get('x-total-count')).to.equal('4');
    expect(response.headers.get('link')).to.match(/rel="next"$/);
    const json = await (await get(path, { method: 'POST', body, headers: { Accept: 'application/json' } })).json() as
      { sightingId: number }[];
    expect((await records(response)).map((row) => Number(row.sightingId)))
      .to.deep.equal(json.map((row) => row.sightingId)).and.deep.equal([ids[1], ids[3], ids[0]]);
  });

  it('when a query by example matches nothing, then it is 204 as in JSON; an empty list is the header alone',
    async () => {
      const none = await get('/sighting/qbe', { method: 'POST', body: { sightingMemo: unique('nothing') } });
      expect(none.status).to.equal(204);
      const empty = await get(`/timezone?timezoneName=${encodeURIComponent(unique('Nowhere/Zone'))}`);
      expect(empty.status).to.equal(200);
      expect(await empty.text()).to.equal('timezoneId,timezoneName\r\n');
    });

  it('when download=true is asked, then the answer is an attachment named after the collection and the UTC time',
    async () => {
      const response = await get(`/sighting?vesselId=${vesselId}&download=true`);
      expect(response.headers.get('content-disposition'))
        .to.match(/^attachment; filename="sighting-\d{8}T\d{6}Z\.csv"$/);
      expect(await records(response)).to.have.length(4);
      const plain = await get(`/sighting?vesselId=${vesselId}`);
      expect(plain.headers.get('content-disposition')).to.equal(null);
      await plain.body?.cancel();
    });

  it('when a CSV list is refused, then the error is JSON', async () => {
    const unknown = await get('/sighting?sort=nonsense', { headers: { 'Accept-Language': 'de' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.headers.get('content-type')).to.match(/^application\/json/);
    expect(await unknown.json()).to.have.property('sort');
    const anonymous = await get('/sighting', { user: null });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('content-type')).to.match(/^application\/json/);
    await anonymous.body?.cancel();
  });

  it('when a record (not a list) is asked as CSV only, then it is 406; XML lists stay as they are', async () => {
    const one = await get('/sighting/-1');
    expect(one.status).to.equal(406);
    expect(one.headers.get('content-type')).to.match(/^application\/json/);
    await one.body?.cancel();
    const xml = await get(`/sighting?vesselId=${vesselId}`, { headers: { Accept: 'text/xml' } });
    expect(xml.headers.get('content-type')).to.equal('text/xml; charset=utf-8');
    expect(await xml.text()).to.match(/^<\?xml/);
  });
});
