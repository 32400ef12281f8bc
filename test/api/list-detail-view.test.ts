// `view=detail` on a list and on a query by example (docs/behaviour.md#list): the detail view of each row of a
// page, with filters, sort, paging and the count as without it; `limit` at most 200 with it. The contract declares
// each view's list as its own operation (`/detail-view`, `/qbe/list-view`), which answers the same.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel, unique } from '../support/fixtures.ts';

interface Detail { version: number; sightingId: number; sightingMemo: string; sightingDate: string | null;
  vessel: { vesselId: number; version: number } }

describe('view=detail on lists', () => {
  let service: TestService;
  let vesselId: number;
  const word = unique('needle').replace(/\W/g, '');
  const ids: number[] = [];
  const dates = ['2026-03-03T10:00', '2026-03-01T10:00', '2026-03-02T10:00', '2026-03-04T10:00'];
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service);
    for (const [i, sightingDate] of dates.entries()) {
      ids.push(await createSighting(service, buildSighting({ vessel: { vesselId }, sightingDate,
        sightingMemo: `${i} ${word}` }), i === 3 ? 'bob' : 'alice'));
    }
  });

  /** Every page from `path` on, following `Link: rel="next"`, with each page's count. */
  async function pages(method: string, path: string,
    body?: unknown): Promise<{ rows: Detail[][]; totals: (string | null)[] }> {
    const rows: Detail[][] = [];
    const totals: (string | null)[] = [];
    for (let next: string | undefined = path; next;) {
      const response = await rawRequest(service, method, next, {
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { Prefer: 'count=exact', 'Content-Type': 'application/json' },
      });
      expect(response.status, await response.clone().text()).to.equal(200);
      rows.push(await response.json() as Detail[]);
      totals.push(response.headers.get('x-total-count'));
      next = /<[^>]*\/api(\/[^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return { rows, totals };
  }

  it('when a list is asked for view=detail, ' +
    'then each row is the detail view, by the filters, sort and pages, with the count', async () => {
    const { rows, totals } = await pages('GET', `/sighting?vesselId=${vesselId}&sightingDateFrom=2026-03-01T00:00&` +
      `sightingDateBefore=2026-03-04T00:00&sort=sightingDate&limit=2&view=detail`);
    expect(rows.map((page) => page.map((row) => row.sightingId))).to.deep.equal([[ids[1], ids[2]], [ids[0]]]);
    expect(totals).to.deep.equal(['3', '3']);
    expect(rows[0]![0]).to.deep.include({ version: 0, sightingId: ids[1], sightingMemo: `1 ${word}`,
      sightingDate: '2026-03-01T10:00:00.000' });
    expect(rows[0]![0]!.vessel).to.include({ vesselId, version: 0 });
  });

  it('when view=detail comes with its key percent-encoded, then it is the detail view all the same', async () => {
    const response = await rawRequest(service, 'GET', `/sighting?vesselId=${vesselId}&limit=1&v%69ew=detail`);
    expect(response.status, await response.clone().text()).to.equal(200);
    expect((await response.json() as Detail[])[0]).to.include({ sightingId: ids[0], version: 0 });
  });

  it('when the list is asked without view, then it is the list view as before: no version, no memo', async () => {
    const response = await rawRequest(service, 'GET', `/sighting?vesselId=${vesselId}&limit=1`);
    const vessels =
      await (await rawRequest(service, 'GET', `/vessel?vesselId=${vesselId}`)).json() as { vesselName: string }[];
    expect(await response.json()).to.deep.equal([{ sightingId: ids[0],
      vessel: { vesselId, vesselName: vessels[0]!.vesselName },
      sightingTimezone: null, sightingDate: '2026-03-03T10:00:00.000' }]);
  });

  it('when mine=true is combined with view=detail, then only the caller\'s rows come, in the detail view', async () => {
    const { rows, totals } =
      await pages('GET', `/sighting?vesselId=${vesselId}&mine=true&view=detail&limit=10&sort=-sightingDate`);
    expect(rows.flat().map((row) => row.sightingId)).to.deep.equal([ids[0], ids[2], ids[1]]);
    expect(rows.flat().every((row) => row.sightingMemo.endsWith(word))).to.equal(true);
    expect(totals).to.deep.equal(['3']);
  });

  it('when a query by example is paged, sorted, filtered and counted, ' +
    'then its pages hold every match once in the detail view', async () => {
    const { rows, totals } = await pages('POST', `/sighting/qbe?vesselId=${vesselId}&sort=-sightingDate&limit=3&` +
      `view=detail`, { sightingMemo: word.toUpperCase() });
    expect(rows.map((page) => page.map((row) => row.sightingId))).to.deep.equal([[ids[3], ids[0], ids[2]], [ids[1]]]);
    expect(totals).to.deep.equal(['4', '4']);
    expect(rows[1]![0]).to.deep.include({ sightingMemo: `1 ${word}`, version: 0 });
  });

  it('when a query by example is filtered to mine and a date range, then only those matches count', async () => {
    const { rows, totals } =
      await pages('POST', `/sighting/qbe?mine=true&sightingDateFrom=2026-03-02T00:00&limit=50`, { sightingMemo: word });
    expect(rows.flat().map((row) => row.sightingId)).to.deep.equal([ids[0], ids[2]]);
    expect(totals).to.deep.equal(['2']);
  });

  it('when a query by example matches nothing, then it is still 204 with no body', async () => {
    const response = await rawRequest(service, 'POST', '/sighting/qbe?limit=5&view=detail',
      { body: JSON.stringify({ sightingMemo: unique('nothing') }), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).to.equal(204);
    expect(await response.text()).to.equal('');
  });

  // Each view's list is its own operation in the contract (2.0.0), which generated clients call; `view` is answered so.
  it('when the detail-view list is called as a generated client does, ' +
    'then its pages are those of view=detail, paged on its own path', async () => {
    const query = `vesselId=${vesselId}&sort=sightingDate&limit=2`;
    const twin = await pages('GET', `/sighting/detail-view?${query}`);
    expect(twin).to.deep.equal(await pages('GET', `/sighting?${query}&view=detail`));
    const api = await apiClient(service);
    const first =
      await api.GET('/sighting/detail-view', { params: { query: { vesselId, sort: 'sightingDate', limit: 2 } } });
    expect(first.data?.map((row) => row.sightingMemo)).to.deep.equal([`1 ${word}`, `2 ${word}`]);
    expect(first.response.headers.get('link')).to.match(/^<[^>]*\/sighting\/detail-view\?[^>]*>; rel="next"$/);
  });

  it('when the sighting query by example is called in the list view, ' +
    'then it is view=list of the query: list rows, no memo', async () => {
    const example = { sightingMemo: word.toUpperCase() };
    const query = `vesselId=${vesselId}&sort=-sightingDate&limit=3`;
    const twin = await pages('POST', `/sighting/qbe/list-view?${query}`, example);
    expect(twin).to.deep.equal(await pages('POST', `/sighting/qbe?${query}&view=list`, example));
    expect(twin.rows.flat().map((row) => [row.sightingId, 'sightingMemo' in row, 'version' in row]))
      .to.deep.equal([ids[3], ids[0], ids[2], ids[1]].map((id) => [id, false, false]));
  });

  it('when an operation is asked for the view of another, then it is a 400 on view', async () => {
    const responses = await Promise.all([rawRequest(service, 'GET', '/sighting/detail-view?view=list'),
      rawRequest(service, 'POST', '/sighting/qbe/list-view?view=detail',
        { body: '{}', headers: { 'Content-Type': 'application/json' } })]);
    expect(await Promise.all(responses.map(async (r) => [r.status, Object.keys(await r.json() as object)])))
      .to.deep.equal([[400, ['view']], [400, ['view']]]);
  });

  it('when view=detail asks for more than 200 rows, then it is a 400 on limit', async () => {
    const response = await rawRequest(service, 'GET', '/sighting?view=detail&limit=201');
    expect(response.status).to.equal(400);
    expect(await response.json())
      .to.deep.equal({ limit: { message: 'The page size must lie between 1 and 200.', key: 'error.limit.range' } });
    expect((await rawRequest(service, 'GET', '/sighting?view=detail&limit=200')).status).to.equal(200);
    expect((await rawRequest(service, 'GET', '/sighting?limit=201')).status).to.equal(200);
  });

  it('when view names no view, then it is a 400 on view', async () => {
    const response = await rawRequest(service, 'GET', '/sighting?view=full');
    expect(response.status).to.equal(400);
    expect(await response.json()).to.have.property('view').that.deep.includes({ key: 'error.view.invalid' });
  });

  it('when a list is asked for view=detail in XML, ' +
    'then each <sighting> of the <collection> has its version and memo', async () => {
    const response = await rawRequest(service, 'GET',
      `/sighting?vesselId=${vesselId}&sort=sightingDate&limit=1&view=detail`, { headers: { Accept: 'text/xml' } });
    expect(response.status).to.equal(200);
    const text = await response.text();
    expect(text).to.match(
      new RegExp(`^<\\?xml[^>]*\\?><collection[^>]*><sighting><version>0</version><sightingId>${ids[1]}</sightingId>` +
      `<sightingMemo>1 ${word}</sightingMemo><vessel><version>0</version><vesselId>${vesselId}</vesselId>`));
  });
});
