// The history filtered by version (contract 1.2.0, the successor of GET /{resource}/{id}/versions/{version}): an
// equality filter like a list's, whose entries are the unfiltered history's, paged and counted alike.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createTimezone, createVessel, unique } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';
import { declaration, outcome, xmlCall, xsiDeclaration } from '../xml/xml-client.ts';

interface Entry { version: number; change: string; changedAt: string; changedBy?: string;
  record: { sightingMemo?: string } | null }

const versionInvalid =
  { version: { message: 'The version must be a whole number from 0.', key: 'error.version.invalid' } };

describe('record history filtered by version @pgbouncer', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function history(path: string,
    { user = 'alice', headers = {} }: { user?: User; headers?: Record<string, string> } = {}) {
    const response = await rawRequest(service, 'GET', path, { user, headers });
    return {
      status: response.status, body: await response.json() as Entry[],
      link: response.headers.get('link'), total: response.headers.get('x-total-count'),
    };
  }

  /** A sighting at version 2 (created, updated twice); deleted at version 2 when asked. */
  async function sightingWithHistory({ deleted = false } = {}): Promise<{ id: number; memos: string[] }> {
    const body = buildSighting();
    const id = await createSighting(service, body);
    const api = await apiClient(service);
    const memos = [body.sightingMemo, unique('first'), unique('second')];
    for (const version of [0, 1]) {
      expect((await api.PUT('/sighting/{id}', { params: { path: { id } },
        body: { ...body, version, sightingMemo: memos[version + 1]! } })).response.status).to.equal(204);
    }
    if (deleted)
      expect((await api.DELETE('/sighting/{id}', { params: { path: { id } } })).response.status).to.equal(204);
    return { id, memos };
  }

  for (const user of ['alice', 'admin'] as const) {
    it(`when ${user} asks for one version, `
      + `then the answer is exactly that entry of the unfiltered history`, async () => {
      const { id, memos } = await sightingWithHistory();
      const all = await history(`/sighting/${id}/versions`, { user });
      const one = await history(`/sighting/${id}/versions?version=1`, { user });
      expect(one)
        .to.deep.equal({ status: 200, body: all.body.filter((entry) => entry.version === 1), link: null, total: null });
      expect(one.body.map(({ version, change, record }) => ({ version, change, memo: record?.sightingMemo })))
        .to.deep.equal([{ version: 1, change: 'updated', memo: memos[1] }]);
      // Only admins see who changed it, filtered or not.
      expect(one.body.map((entry) => 'changedBy' in entry)).to.deep.equal([user === 'admin']);
    });
  }

  it('when the record has history but no such version, then 200 with []', async () => {
    const { id } = await sightingWithHistory();
    expect(await history(`/sighting/${id}/versions?version=3`))
      .to.deep.equal({ status: 200, body: [], link: null, total: null });
  });

  it('when the record never had any history, then the 404 of the unfiltered history', async () => {
    const [filtered, unfiltered] = await Promise.all([
      rawRequest(service, 'GET', '/sighting/987654321/versions?version=0'),
      rawRequest(service, 'GET', '/sighting/987654321/versions'),
    ]);
    expect([filtered.status, await filtered.json()]).to.deep.equal([404, await unfiltered.json()]);
    expect(unfiltered.status).to.equal(404);
  });

  it('when the version asked is the one a delete kept, '
    + 'then both its entries come, the deleted one with record null first', async () => {
    const { id, memos } = await sightingWithHistory({ deleted: true });
    const { status, body } = await history(`/sighting/${id}/versions?version=2`);
    expect(status).to.equal(200);
    expect(body.map(({ version, change, record }) => ({ version, change, record: record && record.sightingMemo })))
      .to.deep.equal([
      { version: 2, change: 'deleted', record: null }, { version: 2, change: 'updated', record: memos[2] },
    ]);
  });

  it('when a filtered history is paged with limit and counted, '
    + 'then Link keeps the filter and the count is of the matching entries', async () => {
    const { id } = await sightingWithHistory({ deleted: true });
    const pages: Array<{ entries: string[]; total: string | null; next: string | undefined }> = [];
    let url: string | undefined = `/sighting/${id}/versions?version=2&limit=1`;
    while (url) {
      const page = await history(url, { headers: { Prefer: 'count=exact' } });
      expect(page.status).to.equal(200);
      const next = /<[^>]*\/api(\/[^>]+)>; rel="next"/.exec(page.link ?? '')?.[1];
      pages.push({ entries: page.body.map(({ version, change }) => `${version} ${change}`), total: page.total, next });
      url = next;
    }
    expect(pages).to.deep.equal([
      { entries: ['2 deleted'], total: '2', next: `/sighting/${id}/versions?version=2&limit=1&after=3` },
      { entries: ['2 updated'], total: '2', next: undefined },
    ]);
  });

  it('when a filter and an after leave nothing, then 200 with [] and a count of the filter\'s entries', async () => {
    const { id } = await sightingWithHistory();
    expect(await history(`/sighting/${id}/versions?version=2&after=2`, { headers: { Prefer: 'count=exact' } }))
      .to.deep.equal({ status: 200, body: [], link: null, total: '1' });
  });

  for (const value of ['-1', 'x', '1.0', '1e0', '2147483648', '99999999999999999999', `1${'0'.repeat(309)}`]) {
    it(`when version is ${value.length > 20 ? `${value.slice(0, 4)}… (${value.length} characters)` : value}, `
      + `then it is a 400 on version`, async () => {
      const id = await createSighting(service);
      const response = await rawRequest(service, 'GET', `/sighting/${id}/versions?version=${value}`);
      expect({ status: response.status, body: await response.json() as unknown })
        .to.deep.equal({ status: 400, body: versionInvalid });
    });
  }

  it('when a filtered history is asked for in XML, '
    + 'then it is <versions> holding the entry, or nothing for a miss', async () => {
    const id = await createSighting(service);
    const hit = await outcome(await xmlCall(service, 'GET', `/sighting/${id}/versions?version=0`));
    expect(hit.status).to.equal(200);
    const opening = `${declaration}<versions ${xsiDeclaration}><version><version>0</version><change>created</change>`;
    expect(hit.body)
      .to.match(new RegExp(`^${escape(`${opening}<changedAt>`)}[^<]+</changedAt><record><version>0</version>`
      + `<sightingId>${id}</sightingId>`));
    expect(hit.body).to.match(/<\/record><\/version><\/versions>$/);
    const miss = await outcome(await xmlCall(service, 'GET', `/sighting/${id}/versions?version=1`));
    expect([miss.status, miss.body]).to.deep.equal([200, `${declaration}<versions ${xsiDeclaration}></versions>`]);
  });

  it('when each collection\'s history is filtered, then each answers its record\'s entry of that version', async () => {
    const ids = { timezone: await createTimezone(service), vessel: await createVessel(service),
      sighting: await createSighting(service) };
    for (const [collection, id] of Object.entries(ids)) {
      const { status, body } = await history(`/${collection}/${id}/versions?version=0`);
      expect({ collection, status, entries: body.map(({ version, change }) => `${version} ${change}`) })
        .to.deep.equal({ collection, status: 200, entries: ['0 created'] });
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
