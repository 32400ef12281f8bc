// Lists and queries by example as JSON lines (docs/api.md#export): the JSON list's objects, one per line, with the
// same filters, order, pages, counts, views and roles; a download's file name; errors in JSON.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { ndjsonLines, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';

describe('export as JSON lines', () => {
  let service: TestService;
  let vesselId: number;
  const word = unique('ndjson').replace(/\W/g, '');
  const ids: number[] = [];
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service);
    for (const [i, sightingDate] of ['2026-06-03T10:00', '2026-06-01T10:00', '2026-06-02T10:00'].entries()) {
      ids.push(await createSighting(service, buildSighting({ vessel: { vesselId }, sightingDate,
        sightingMemo: `${word} ${i} "quoted"\nline 🚀` }), i === 2 ? 'bob' : 'alice'));
    }
  });

  async function ask(accept: string, method: string, path: string,
    { user, body, headers }: { user?: User | null; body?: unknown; headers?: Record<string, string> } = {}) {
    return rawRequest(service, method, path, { user, headers: { Accept: accept, 'Content-Type': 'application/json',
      ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  /** The same request as JSON lines and as JSON: the lines' values and the JSON list. */
  async function both(method: string, path: string, options: { user?: User; body?: unknown } = {}) {
    const lines = await ask('application/x-ndjson', method, path, options);
    expect(lines.status, await lines.clone().text()).to.equal(200);
    expect(lines.headers.get('content-type')).to.equal('application/x-ndjson; charset=utf-8');
    const json = await ask('application/json', method, path, options);
    return { lines: ndjsonLines(await lines.text()), json: await json.json() as unknown[] };
  }

  for (const collection of ['sighting', 'vessel', 'timezone']) {
    for (const view of ['list', 'detail']) {
      it(`when the ${collection} list is asked as JSON lines in the ${view} view, ` +
        'then each line is the JSON list\'s object', async () => {
        const limit = view === 'detail' ? 200 : 1000;
        const { lines, json } = await both('GET', `/${collection}?view=${view}&limit=${limit}`);
        expect(lines).to.have.length.above(0);
        expect(lines).to.deep.equal(json);
      });
    }
  }

  it('when a whole list is asked as JSON lines, then its lines are the whole JSON list', async () => {
    const { lines, json } = await both('GET', `/sighting?vesselId=${vesselId}`);
    expect(lines).to.deep.equal(json);
    expect(lines.map((line) => (line as { sightingId: number }).sightingId)).to.deep.equal(ids);
  });

  it('when a query by example is asked as JSON lines with sort, page, count and mine, then they apply as in JSON',
    async () => {
      const path = '/sighting/qbe?sort=sightingDate&limit=1&mine=true';
      const response = await ask('application/x-ndjson', 'POST', path, { body: { sightingMemo: word },
        headers: { Prefer: 'count=exact' } });
      expect(response.headers.get('x-total-count')).to.equal('2');
      expect(response.headers.get('link')).to.match(/rel="next"$/);
      const text = await response.text();
      expect(text.split('\n')).to.have.length(2);
      expect(ndjsonLines(text).map((line) => (line as { sightingId: number }).sightingId)).to.deep.equal([ids[1]]);
      const { lines } = await both('POST', '/sighting/qbe/list-view?sort=-sightingDate', { body: { sightingMemo: word },
        user: 'bob' });
      expect(lines.map((line) => (line as { sightingId: number }).sightingId)).to.deep.equal([ids[0], ids[2], ids[1]]);
      expect(lines[0]).to.not.have.property('sightingMemo');
    });

  it('when download=true is asked, then the file is <collection>-<UTC time>.ndjson', async () => {
    const response = await ask('application/x-ndjson', 'POST', '/vessel/qbe?download=true',
      { body: { vesselId } });
    expect(response.headers.get('content-disposition'))
      .to.match(/^attachment; filename="vessel-\d{8}T\d{6}Z\.ndjson"$/);
    expect(ndjsonLines(await response.text())).to.have.length(1);
  });

  it('when a caller without a role asks for JSON lines, then the refusal is JSON', async () => {
    const response = await ask('application/x-ndjson', 'GET', '/sighting', { user: null });
    expect(response.status).to.equal(401);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    await response.body?.cancel();
  });
});
