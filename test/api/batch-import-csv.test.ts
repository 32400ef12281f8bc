// POST /{resource}/batch in CSV: the export's columns, RFC 4180's quoting, text exactly as sent, a bad line named.
import { expect } from 'chai';
import { backend, sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

type Created = Array<Record<string, number>>;
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

describe(`batch import in CSV (${backend})`, function () {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function batch(resource: string, body: string, user: User = 'admin', headers: Record<string, string> = {}) {
    const response = await rawRequest(service, 'POST', `/${resource}/batch`,
      { user, body, headers: { 'Content-Type': 'text/csv', ...headers } });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
  }

  const read = async (path: string) => {
    const response = await rawRequest(service, 'GET', path, { user: 'admin' });
    expect(response.status, path).to.equal(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  it('when sightings come as CSV with a BOM, CRLF, quoted commas, quotes and line ends, umlauts and emoji, then each ' +
    'memo reads back exactly', async () => {
    const memos = [unique('Grüße, "Jäger"'), unique('zwei\r\nZeilen 🚀'), unique('plain')];
    const text = '\uFEFFsightingId,vessel.vesselId,vessel.vesselName,sightingMemo,sightingTimezone,sightingDate\r\n'
      + `-1,-1,Klingon Warbird,${quoted(memos[0]!)},Europe/Berlin,2026-11-22T21:30:00.000\r\n`
      + `,-2,,${quoted(memos[1]!)},,\r\n`
      + `,-1,"ignored, as an export's",${memos[2]},+01:00,2026-11-23T08:00\r\n`;
    const answer = await batch('sighting', text, 'alice');
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const ids = (answer.body as Created).map((record) => record.sightingId!);
    const stored = await Promise.all(ids.map((id) => read(`/sighting/${id}`)));
    expect(stored.map(({ sightingMemo, vessel, sightingTimezone, sightingDate }) =>
      ({ sightingMemo, vesselId: (vessel as { vesselId: number }).vesselId, sightingTimezone, sightingDate })))
      .to.deep.equal([
        { sightingMemo: memos[0], vesselId: -1, sightingTimezone: 'Europe/Berlin',
          sightingDate: '2026-11-22T21:30:00.000' },
        { sightingMemo: memos[1], vesselId: -2, sightingTimezone: null, sightingDate: null },
        { sightingMemo: memos[2], vesselId: -1, sightingTimezone: '+01:00', sightingDate: '2026-11-23T08:00:00.000' },
      ]);
    const versions = await read(`/sighting/${ids[1]}/versions`) as unknown as Array<{ change: string }>;
    expect(versions.map(({ change }) => change)).to.deep.equal(['created']);
  });

  it('when vessels come as CSV with a column per language, then each has the texts of its non-empty fields',
    async () => {
      const [en, de] = [unique('Jäger ✨'), unique('Schiff, "groß"')];
      const text = `vesselId,vesselName.en,vesselName.de\n-1,${quoted(en)},${quoted(de)}\n,${quoted(en)},\n`;
      const answer = await batch('vessel', text);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      const ids = (answer.body as Created).map((record) => record.vesselId!);
      expect((await read(`/vessel/${ids[0]}`)).vesselName).to.deep.equal({ en, de });
      expect((await read(`/vessel/${ids[1]}`)).vesselName).to.deep.equal({ en });
    });

  it('when time zones come as CSV, then they are stored', async () => {
    const name = unique('Mars/Olympus');
    const answer = await batch('timezone', `timezoneId,timezoneName\r\n1,${name}\r\n`);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    const [{ timezoneId }] = answer.body as [{ timezoneId: number }];
    expect(await read(`/timezone/${timezoneId}`)).to.deep.include({ timezoneName: name, version: 0 });
  });

  const count = async (memo: string) =>
    (await read(`/sighting?sightingMemo=${encodeURIComponent(memo)}`) as unknown as unknown[]).length;

  it('when a quote is never closed, then 400 names the line its row starts on and nothing is stored', async () => {
    const memo = unique('quote');
    const text = `sightingMemo,vessel.vesselId\r\n${memo},-1\r\n"${memo},-1\r\n${memo},-1\r\n`;
    expect(await batch('sighting', text, 'alice')).to.deep.equal({ status: 400, body: { body: {
      message: 'The CSV is not well-formed at line 3.', key: 'error.csv.malformed' } } });
    expect(await count(memo)).to.equal(0);
  });

  it('when a row has another number of fields, then 400 names its line and nothing is stored', async () => {
    const memo = unique('fields');
    const text = `sightingMemo,vessel.vesselId\n${memo},-1\n${quoted(`${memo}\nacross lines`)},-1\n${memo}\n`;
    expect(await batch('sighting', text, 'alice', { 'Accept-Language': 'de' })).to.deep.equal({ status: 400,
      body: { body: { message: 'Das CSV ist in Zeile 5 nicht wohlgeformt.', key: 'error.csv.malformed' } } });
    expect(await count(memo)).to.equal(0);
  });

  it('when a data row breaks a rule, then 400 names its data row and field, and nothing is stored', async () => {
    const memo = unique('rule');
    const text = `sightingMemo,vessel.vesselId,colour\n${memo},-1,\nx,-1,\n${memo},notanumber,red\n`;
    const answer = await batch('sighting', text, 'alice');
    expect(answer.status).to.equal(400);
    expect((answer.body as { records: Array<Record<string, unknown>> }).records
      .map(({ record, field, key }) => ({ record, field, key }))).to.deep.equal([
      { record: 1, field: 'colour', key: 'error.field.unknown' },
      { record: 2, field: 'colour', key: 'error.field.unknown' },
      { record: 2, field: 'sightingMemo', key: 'sighting.memo.minLength' },
      { record: 3, field: 'colour', key: 'error.field.unknown' },
      { record: 3, field: 'vessel.vesselId', key: 'error.id.invalid' },
    ]);
    expect(await count(memo)).to.equal(0);
  });

  it('when a column is named __proto__ or constructor, then each is a field of the record that the schema refuses, ' +
    'and nothing is stored', async () => {
    const memo = unique('prototype');
    const text = `sightingMemo,vessel.vesselId,__proto__,vessel.__proto__,constructor\n${memo},-1,x,y,z\n`;
    const answer = await batch('sighting', text, 'alice');
    expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
    expect((answer.body as { records: Array<Record<string, unknown>> }).records
      .map(({ record, field, key }) => ({ record, field, key }))).to.deep.equal([
      { record: 1, field: '__proto__', key: 'error.field.unknown' },
      { record: 1, field: 'constructor', key: 'error.field.unknown' },
      { record: 1, field: 'vessel.__proto__', key: 'error.field.unknown' },
    ]);
    expect(await count(memo)).to.equal(0);
  });
});
