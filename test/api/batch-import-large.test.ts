// A batch of several MB, read as its bytes arrive (src/http/batch-body.ts; an XML list record by record): in each
// format every record is stored exactly as sent, in input order, and a bad record near the end is named by its
// position, with nothing stored.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { unique } from '../support/fixtures.ts';

// On PGlite, whose statements run on the test's own thread, a quarter of the records, each longer, still make a body of
// several MB: what is tested is the body read as it arrives, not the database's speed (40,000 took two minutes there).
const count = backend === 'pglite' ? 10_000 : 40_000;
const padding = backend === 'pglite' ? 300 : 0;

type Sighting = { sightingMemo: string; vessel: { vesselId: number } };

const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

/** The body of `records` in `type`: a JSON array, JSON lines, an XML list, or CSV with the export's column names. */
function encode(type: string, records: Sighting[]): string {
  if (type === 'application/json') return JSON.stringify(records);
  if (type === 'application/x-ndjson') return records.map((record) => `${JSON.stringify(record)}\n`).join('');
  if (type === 'text/xml') {
    return `<?xml version="1.0" encoding="UTF-8"?>\n<collection>${records.map(({ sightingMemo, vessel }) =>
      `\n  <sighting><sightingMemo>${escaped(sightingMemo)}</sightingMemo><vessel><vesselId>${vessel.vesselId}`
      + '</vesselId></vessel></sighting>').join('')}\n</collection>\n`;
  }
  return `sightingMemo,vessel.vesselId\r\n${records.map(({ sightingMemo, vessel }) =>
    `"${sightingMemo.replaceAll('"', '""')}",${vessel.vesselId}\r\n`).join('')}`;
}

describe(`batch import of several MB (${backend})`, function () {
  this.timeout(300_000);
  let service: TestService;
  // A service of its own: 120,000 more sightings would make every whole list of the shared one long (and slow).
  // A body is parsed as it arrives, and its arrival is bounded (REQUEST_TIMEOUT_MS): on a machine shared with others a
  // 40,000-record XML body's parsing (xml2js) alone can take longer than the default 30 s. This is not a test of that.
  // The batch's statements have a bound of their own, which grows with its records
  // (test/fleet/batch-statement-bound.test.ts).
  before(async () => {
    service = await startService({ REQUEST_TIMEOUT_MS: '300000' });
  });
  after(async () => { await service?.stop(); });

  async function batch(type: string, body: string) {
    const response = await rawRequest(service, 'POST', '/sighting/batch',
      { user: 'alice', body, headers: { 'Content-Type': type } });
    return { status: response.status, body: await response.json() as unknown };
  }

  const read = async (path: string) => {
    const response = await rawRequest(service, 'GET', path);
    expect(response.status, path).to.equal(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  // Texts of one, two, three and four UTF-8 bytes and escapes, so that chunks end inside characters and strings.
  const records = (memo: string) => Array.from({ length: count }, (_, index): Sighting => ({
    sightingMemo: `${memo} ${index} Grüße, "Jäger" ✨ 🚀 \\ ${'x'.repeat(padding + index % 50)}`,
    vessel: { vesselId: index % 2 ? -1 : -2 } }));

  for (const type of ['application/json', 'application/x-ndjson', 'text/csv', 'text/xml']) {
    it(`when ${count} sightings come as ${type} (several MB), then each is stored exactly, ids in input order`,
      async () => {
        const sent = records(unique('large'));
        const body = encode(type, sent);
        expect(Buffer.byteLength(body)).to.be.above(3_000_000);
        const answer = await batch(type, body);
        expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).to.equal(201);
        const ids = (answer.body as Array<{ sightingId: number; version: number }>).map(({ sightingId }) => sightingId);
        expect(ids).to.have.length(count);
        expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).to.equal(true);
        for (const index of [0, 1, 4_321, count - 2, count - 1]) {
          const stored = await read(`/sighting/${ids[index]}`);
          const { vesselId } = stored.vessel as Sighting['vessel'];
          expect({ sightingMemo: stored.sightingMemo, vessel: { vesselId } }).to.deep.equal(sent[index]);
        }
      });

    it(`when the next-to-last of ${count} sightings as ${type} breaks a rule, then 400 names it by position, and ` +
      'none is stored', async () => {
      const memo = unique('late');
      const sent = records(memo);
      sent[count - 2] = { ...sent[count - 2]!, sightingMemo: 'x' };
      const answer = await batch(type, encode(type, sent));
      expect(answer).to.deep.equal({ status: 400, body: { records: [{ record: count - 1, field: 'sightingMemo',
        message: 'The memo must have at least 2 characters.', key: 'sighting.memo.minLength' }] } });
      const first = encodeURIComponent(sent[0]!.sightingMemo);
      expect(await (await rawRequest(service, 'GET', `/sighting?sightingMemo=${first}`)).json()).to.deep.equal([]);
    });
  }
});
