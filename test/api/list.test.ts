// Lists: ordered by id, equality filters on scalar fields AND-ed, unknown parameters refused, paging by
// limit/after/Link.
import { expect } from 'chai';
import { sharedService, startService, type TestService } from '../support/service.ts';
import { apiClient, contractCheckedFetch, rawRequest } from '../support/api-client.ts';
import { tokenFor } from '../support/tokens.ts';
import { buildSighting, createSighting, createTimezone, buildTimezone, unique } from '../support/fixtures.ts';

describe('list @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const listItem = (sightingId: number, sightingTimezone: string | null = null, sightingDate: string | null = null) =>
    ({ sightingId, vessel: { vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone, sightingDate });

  async function get(path: string): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await rawRequest(service, 'GET', path);
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  it('when sightings are listed, then they come in ascending id order', async () => {
    const memo = unique('ordered');
    const ids = [await createSighting(service, buildSighting({ sightingMemo: memo })),
      await createSighting(service, buildSighting({ sightingMemo: memo })),
      await createSighting(service, buildSighting({ sightingMemo: memo }))];
    const { data, response } =
      await (await apiClient(service)).GET('/sighting', { params: { query: { sightingMemo: memo } } });
    expect(response.status).to.equal(200);
    expect(data).to.deep.equal(ids.map((id) => listItem(id)));
    const all = (await (await apiClient(service)).GET('/sighting')).data!.map((s) => s.sightingId);
    expect(all).to.deep.equal([...all].sort((a, b) => a - b));
  });

  describe('equality filters', () => {
    let memo: string;
    let berlin: number;
    let paris: number;
    let otherBerlin: number;
    before(async () => {
      memo = unique('filtered');
      berlin = await createSighting(service, buildSighting({ sightingMemo: memo, sightingTimezone: 'Europe/Berlin',
        sightingDate: '2026-11-22T21:30:00.000' }));
      paris = await createSighting(service, buildSighting({ sightingMemo: memo, sightingTimezone: 'Europe/Paris',
        sightingDate: '2026-11-22T21:30:00.000' }));
      otherBerlin = await createSighting(service, buildSighting({ sightingTimezone: 'Europe/Berlin' }));
    });

    it('when two filters are given, then only records matching both come back (AND)', async () => {
      const { data } = await (await apiClient(service)).GET('/sighting',
        { params: { query: { sightingMemo: memo, sightingTimezone: 'Europe/Berlin' } } });
      expect(data).to.deep.equal([listItem(berlin, 'Europe/Berlin', '2026-11-22T21:30:00.000')]);
    });

    it('when the filter values are written unencoded, as in ?sightingTimezone=Europe/Berlin, ' +
      'then they work the same', async () => {
      expect(await get(`/sighting?sightingTimezone=Europe/Berlin&sightingMemo=${encodeURIComponent(memo)}`))
        .to.deep.equal({ status: 200,
          body: [listItem(berlin, 'Europe/Berlin', '2026-11-22T21:30:00.000')], link: null });
      expect(await get(`/sighting?sightingDate=2026-11-22T21:30:00.000&sightingMemo=${encodeURIComponent(memo)}`))
        .to.deep.equal({ status: 200, body: [listItem(berlin, 'Europe/Berlin', '2026-11-22T21:30:00.000'),
          listItem(paris, 'Europe/Paris', '2026-11-22T21:30:00.000')], link: null });
    });

    it('when the time zone filter alone is given, ' +
      'then records of others with that zone come back too, and mine of other zones do not', async () => {
      const { data } =
        await (await apiClient(service)).GET('/sighting', { params: { query: { sightingTimezone: 'Europe/Berlin' } } });
      const ids = data!.map((s) => s.sightingId);
      expect(ids).to.include.members([berlin, otherBerlin]);
      expect(ids).not.to.include(paris);
      expect(data!.every((s) => s.sightingTimezone === 'Europe/Berlin')).to.equal(true);
    });

    it('when filtering by sightingId, then exactly that record comes back', async () => {
      const { data } = await (await apiClient(service)).GET('/sighting', { params: { query: { sightingId: paris } } });
      expect(data).to.deep.equal([listItem(paris, 'Europe/Paris', '2026-11-22T21:30:00.000')]);
    });

    it('when filtering by sightingDate, ' +
      'then it compares the date-time, whatever precision it is written in', async () => {
      const { data } = await (await apiClient(service)).GET('/sighting',
        { params: { query: { sightingMemo: memo, sightingDate: '2026-11-22T21:30' } } });
      expect(data!.map((s) => s.sightingId)).to.deep.equal([berlin, paris]);
    });

    it('when a filter is a part of the value only, then nothing matches (equality, not query by example)', async () => {
      const { data } =
        await (await apiClient(service)).GET('/sighting', { params: { query: { sightingMemo: memo.slice(0, -1) } } });
      expect(data).to.deep.equal([]);
    });

    it('when time zones are filtered by name, then exactly the one with that name comes back', async () => {
      const body = buildTimezone();
      const timezoneId = await createTimezone(service, body);
      const { data } =
        await (await apiClient(service)).GET('/timezone', { params: { query: { timezoneName: body.timezoneName } } });
      expect(data).to.deep.equal([{ timezoneId, timezoneName: body.timezoneName }]);
    });

    it('when vessels are filtered by vesselId and version, then they are AND-ed', async () => {
      const api = await apiClient(service);
      expect((await api.GET('/vessel', { params: { query: { vesselId: -2, version: 0 } } })).data?.map((v) =>
        v.vesselId)).to.deep.equal([-2]);
      expect((await api.GET('/vessel', { params: { query: { vesselId: -2, version: 99 } } })).data).to.deep.equal([]);
    });
  });

  describe('date range', () => {
    let memo: string;
    let ids: Record<string, number>;
    const dates = ['2026-10-31T23:59:59.999', '2026-11-01T00:00:00.000', '2026-11-15T12:00:00.000',
      '2026-11-30T23:59:59.999', '2026-12-01T00:00:00.000'];
    before(async () => {
      memo = unique('ranged');
      ids = {};
      for (const sightingDate of dates)
        ids[sightingDate] = await createSighting(service, buildSighting({ sightingMemo: memo, sightingDate }));
      await createSighting(service, buildSighting({ sightingMemo: memo, sightingDate: null }));
    });
    const datesOf = (body: unknown) => (body as { sightingDate: string }[]).map((s) => s.sightingDate);
    const ranged = (query: string) => get(`/sighting?sightingMemo=${encodeURIComponent(memo)}&${query}`);

    it('when both bounds are given, then the sightings from the first (inclusive) to before the second come back, ' +
      'and none without a date', async () => {
      const { status, body } = await ranged('sightingDateFrom=2026-11-01T00:00&sightingDateBefore=2026-12-01T00:00');
      expect({ status, dates: datesOf(body) }).to.deep.equal({ status: 200, dates: dates.slice(1, 4) });
    });

    it('when one bound is given, then the range is open on the other side', async () => {
      expect(datesOf((await ranged('sightingDateFrom=2026-11-30T23:59:59.999')).body)).to.deep.equal(dates.slice(3));
      expect(datesOf((await ranged('sightingDateBefore=2026-11-01T00:00:00.000')).body))
        .to.deep.equal(dates.slice(0, 1));
    });

    it('when the range is combined with sort, paging and a count, ' +
      'then the count and every page keep the range', async () => {
      const first = await rawRequest(service, 'GET', `/sighting?sightingMemo=${encodeURIComponent(memo)}&` +
        `sightingDateFrom=2026-11-01T00:00&sightingDateBefore=2026-12-01T00:00&sort=-sightingDate&limit=2`,
        { headers: { Prefer: 'count=exact' } });
      expect(first.headers.get('x-total-count')).to.equal('3');
      expect(datesOf(await first.json())).to.deep.equal([dates[3], dates[2]]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1]!;
      expect(next).to.include('sightingDateFrom=2026-11-01T00%3A00')
        .and.to.include('sightingDateBefore=2026-12-01T00%3A00');
      const second = await rawRequest(service, 'GET', next.replace(/^\/api/, ''));
      expect(datesOf(await second.json())).to.deep.equal([dates[1]]);
    });

    it('when the bounds are crossed, then nothing matches: 200 with []', async () => {
      expect(await ranged('sightingDateFrom=2026-12-01T00:00&sightingDateBefore=2026-11-01T00:00'))
        .to.deep.equal({ status: 200, body: [], link: null });
    });

    for (const [parameter, value] of [['sightingDateFrom', '2026-02-30T00:00'],
      ['sightingDateBefore', '2026-11-01T00:00Z'], ['sightingDateFrom', '2026-11-01'], ['sightingDateBefore', '']]) {
      it(`when ${parameter} is ${JSON.stringify(value)}, then it is a 400 on that parameter`, async () => {
        const { status, body } = await ranged(`${parameter}=${encodeURIComponent(value!)}`);
        expect({ status, keys: Object.keys(body as object) }).to.deep.equal({ status: 400, keys: [parameter] });
      });
    }
  });

  describe('refused parameters', () => {
    const unknownParameter = { message: 'This query parameter is unknown.', key: 'error.parameter.unknown' };

    it('when an unknown parameter is given, then it is a 400 on that parameter', async () => {
      expect(await get('/sighting?colour=red'))
        .to.deep.equal({ status: 400, body: { colour: unknownParameter }, link: null });
    });

    it('when a parameter names a field that is not a scalar of the resource, then it is unknown', async () => {
      expect(await get('/vessel?vesselName=Enterprise'))
        .to.deep.equal({ status: 400, body: { vesselName: unknownParameter }, link: null });
      expect(await get('/sighting?vessel=-1'))
        .to.deep.equal({ status: 400, body: { vessel: unknownParameter }, link: null });
      expect(await get('/timezone?sightingMemo=x'))
        .to.deep.equal({ status: 400, body: { sightingMemo: unknownParameter }, link: null });
    });

    for (const limit of ['0', '1001', '-1']) {
      it(`when limit is ${limit}, then it is a 400 with the range 1..1000 in the message`, async () => {
        expect(await get(`/sighting?limit=${limit}`)).to.deep.equal({
          status: 400, body: { limit: { message: 'The page size must lie between 1 and 1000.',
            key: 'error.limit.range' } }, link: null,
        });
      });
    }

    it('when limit is not a number, then it is a 400 on limit', async () => {
      const { status, body } = await get('/sighting?limit=many');
      expect({ status, keys: Object.keys(body as object) }).to.deep.equal({ status: 400, keys: ['limit'] });
    });
  });

  describe('paging', () => {
    let memo: string;
    let ids: number[];
    before(async () => {
      memo = unique('paged');
      ids = [];
      for (let i = 0; i < 5; i++) ids.push(await createSighting(service, buildSighting({ sightingMemo: memo })));
    });

    /** Follows `Link: <…>; rel="next"` from the first page to the last, as a client would. */
    async function allPages(first: string): Promise<{ items: number[][]; links: (string | null)[] }> {
      const headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
      const pages: number[][] = [];
      const links: (string | null)[] = [];
      for (let url: string | undefined = `${service.api}${first}`; url;) {
        const response = await contractCheckedFetch(service)(url, { headers });
        expect(response.status).to.equal(200);
        pages.push(((await response.json()) as { sightingId: number }[]).map((s) => s.sightingId));
        const link = response.headers.get('link');
        links.push(link);
        const next = link && /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
        if (link) expect(next, link).to.be.a('string');
        url = next ? new URL(next, service.url).href : undefined;
        expect(pages.length).to.be.below(10);
      }
      return { items: pages, links };
    }

    it('when 5 records are paged by 2, ' +
      'then the pages are 2, 2, 1 and every page but the last links the next', async () => {
      const { items, links } = await allPages(`/sighting?sightingMemo=${encodeURIComponent(memo)}&limit=2`);
      expect(items).to.deep.equal([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
      expect(links.map((link) => link !== null)).to.deep.equal([true, true, false]);
    });

    it('when the next link is followed, ' +
      'then it keeps the filter and the limit and continues after the last id', async () => {
      const { links } = await allPages(`/sighting?sightingMemo=${encodeURIComponent(memo)}&limit=2`);
      const next = new URL(/^<([^>]+)>/.exec(links[0]!)![1]!, service.url);
      expect(next.pathname).to.equal(`${new URL(service.api).pathname}/sighting`);
      expect(Object.fromEntries(next.searchParams))
        .to.deep.equal({ sightingMemo: memo, limit: '2', after: String(ids[1]) });
    });

    it('when the records fill the last page exactly, then that page has no Link (no empty page follows)', async () => {
      const { items, links } =
        await allPages(`/sighting?sightingMemo=${encodeURIComponent(memo)}&after=${ids[0]}&limit=2`);
      expect(items).to.deep.equal([ids.slice(1, 3), ids.slice(3, 5)]);
      expect(links.map((link) => link !== null)).to.deep.equal([true, false]);
    });

    it('when the limit is larger than the result, then the one page has everything and no Link', async () => {
      const { items, links } = await allPages(`/sighting?sightingMemo=${encodeURIComponent(memo)}&limit=1000`);
      expect(items).to.deep.equal([ids]);
      expect(links).to.deep.equal([null]);
    });

    it('when after is given without limit, then all records after that id come back', async () => {
      const { data, response } =
        await (await apiClient(service)).GET('/sighting', { params: { query: { sightingMemo: memo, after: ids[2] } } });
      expect(response.headers.get('link')).to.equal(null);
      expect(data!.map((s) => s.sightingId)).to.deep.equal(ids.slice(3));
    });

    it('when an id filter and after are both given, then both conditions apply', async () => {
      const api = await apiClient(service);
      const before =
        await api.GET('/sighting', { params: { query: { sightingMemo: memo, sightingId: ids[1], after: ids[0] } } });
      expect(before.data!.map((s) => s.sightingId)).to.deep.equal([ids[1]]);
      const past =
        await api.GET('/sighting', { params: { query: { sightingMemo: memo, sightingId: ids[1], after: ids[1] } } });
      expect(past.data).to.deep.equal([]);
    });

    it('when the filter is long, ' +
      'then the Link repeats it whole and stays within the contract\'s bound on Link', async () => {
      // 2500 characters of two UTF-8 bytes each: a 15 000-character target, within HEADER_LIMIT's default.
      const long = `${unique('paged')}${'é'.repeat(2500)}`;
      const longIds = [await createSighting(service, buildSighting({ sightingMemo: long })),
        await createSighting(service, buildSighting({ sightingMemo: long }))];
      const { items, links } = await allPages(`/sighting?sightingMemo=${encodeURIComponent(long)}&limit=1`);
      expect(items).to.deep.equal(longIds.map((id) => [id]));
      expect(links[0]!.length).to.be.above(15000);
    });

    it('when limit is 1, then each record is one page', async () => {
      const { items } = await allPages(`/sighting?sightingMemo=${encodeURIComponent(memo)}&limit=1`);
      expect(items).to.deep.equal(ids.map((id) => [id]));
    });
  });

  describe('empty', () => {
    let empty: TestService;
    before(async () => { empty = await startService({ DEMO_DATA: 'false' }); });
    after(async () => { await empty?.stop(); });

    it('when a database without demo data lists vessels and sightings, then each is 200 with []', async () => {
      for (const path of ['/vessel', '/sighting', '/sighting?limit=5']) {
        const response = await rawRequest(empty, 'GET', path);
        expect({ path, status: response.status, type: response.headers.get('content-type'), body: await response.text(),
          link: response.headers.get('link') })
          .to.deep.equal({ path, status: 200, type: 'application/json; charset=utf-8', body: '[]', link: null });
      }
    });

    it('when no record matches a filter, then it is 200 with []', async () => {
      expect(await get(`/sighting?sightingMemo=${encodeURIComponent(unique('nothing'))}`))
        .to.deep.equal({ status: 200, body: [], link: null });
    });
  });
});
