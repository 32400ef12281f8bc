// Lists ordered by `sort` (nulls last, ties by id) and paged by an opaque cursor; `Prefer: count=exact` counts the
// matches.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';

interface Item { sightingId: number; sightingDate: string | null; sightingTimezone: string | null }

describe('list order and count', () => {
  let service: TestService;
  let vesselId: number;
  const ids: number[] = [];
  const dates = ['2026-01-03T10:00:00.000', null, '2026-01-01T10:00:00.000', '2026-01-03T10:00:00.000', null,
    '2026-01-02T10:00:00.000'];
  before(async () => {
    service = await sharedService();
    vesselId = await createVessel(service);
    for (const sightingDate of dates)
      ids.push(await createSighting(service, buildSighting({ vessel: { vesselId }, sightingDate })));
  });

  /** Follows `Link: rel="next"` from `path`, gathering every page. */
  async function allPages(path: string,
    headers: Record<string, string> = {}): Promise<{ items: Item[]; pages: number; totals: Array<string | null> }> {
    const items: Item[] = [];
    const totals: Array<string | null> = [];
    let pages = 0;
    for (let next: string | undefined = path; next;) {
      const response = await rawRequest(service, 'GET', next, { headers });
      expect(response.status, `${next} ${response.status === 400 ? await response.clone().text() : ""}`).to.equal(200);
      items.push(...await response.json() as Item[]);
      totals.push(response.headers.get('x-total-count'));
      pages += 1;
      next = /<[^>]*\/api(\/[^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return { items, pages, totals };
  }

  it('when sorted by date descending, ' +
    'then newest first, ties by id, nulls last, and paging by cursor gives each once', async () => {
    const expected = [ids[0], ids[3], ids[5], ids[2], ids[1], ids[4]];
    const whole = await allPages(`/sighting?vesselId=${vesselId}&sort=-sightingDate`);
    expect(whole.items.map((item) => item.sightingId)).to.deep.equal(expected);
    const paged = await allPages(`/sighting?vesselId=${vesselId}&sort=-sightingDate&limit=2`);
    expect(paged.pages).to.equal(3);
    expect(paged.items.map((item) => item.sightingId)).to.deep.equal(expected);
  });

  it('when sorted ascending by date then id descending, then nulls still come last', async () => {
    const { items } = await allPages(`/sighting?vesselId=${vesselId}&sort=sightingDate,-sightingId&limit=4`);
    expect(items.map((item) => item.sightingId)).to.deep.equal([ids[2], ids[5], ids[3], ids[0], ids[4], ids[1]]);
  });

  it('when Prefer: count=exact is sent, then X-Total-Count counts every match on every page', async () => {
    const { totals } =
      await allPages(`/sighting?vesselId=${vesselId}&sort=-sightingDate&limit=4`, { Prefer: 'count=exact' });
    expect(totals).to.deep.equal(['6', '6']);
    const plain = await rawRequest(service, 'GET', `/sighting?vesselId=${vesselId}&limit=1`);
    expect(plain.headers.get('x-total-count')).to.equal(null);
  });

  it('when the sort names an unknown field, or the cursor was made up, then 400 on that parameter', async () => {
    const unknown = await rawRequest(service, 'GET', '/sighting?sort=creator');
    expect(unknown.status).to.equal(400);
    expect(await unknown.json()).to.have.keys('sort');
    for (const cursor of ['bm90IGpzb24', Buffer.from('["x", 1]').toString('base64url'),
      Buffer.from('["2026-13-45T00:00", 1]').toString('base64url'), 'a'.repeat(3000)]) {
      const made = await rawRequest(service, 'GET', `/sighting?sort=-sightingDate&cursor=${cursor}`);
      expect(made.status, cursor).to.equal(400);
      expect(await made.json()).to.have.keys('cursor');
    }
  });
});
