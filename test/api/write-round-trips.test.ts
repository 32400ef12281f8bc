// A write of a one-row record is one round trip where the contract allows it: a create, a PUT and a delete are one
// statement each (the row and its history entry), a merge patch one read (RFC 7396 merges into the record as it is)
// and that same write; a write that matched nothing reads once more to say why. Counted by the service's own statement
// metric (src/db/timed-queries.ts: every statement the ORM sends, by operation), over HTTP.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, idFromLocation } from '../support/fixtures.ts';
import { samples } from '../support/scrape.ts';
import { placeCommitted } from '../../src/feed/sequencer.ts';
import type { User } from '../support/tokens.ts';

type Counts = Record<string, number>;

describe(`statements per write (${backend})`, () => {
  let service: TestService;
  before(async () => {
    service = await startService();
    // On PGlite the service checks its statistics every 10 s (src/db/pglite-statistics.ts): no write's statements.
    await service.web.statistics?.stop();
    // The change feed places new history entries on its own, a transaction of a lock and an UPDATE
    // (src/feed/sequencer.ts), which none of these writes sends and which a window could catch half of. Stopped, and
    // a run of its own after it: that run's lock waits for any run still going to commit.
    await service.web.stopFeed();
    await placeCommitted(service.web.orm.em);
  });
  after(async () => { await service?.stop(); });

  async function statementCounts(): Promise<Counts> {
    const counts: Counts = {};
    for (const [labels, value] of await samples(service.url, 'db_statement_duration_seconds_count')) {
      const operation = /operation="([a-z]+)"/.exec(labels)![1]!;
      // Told to the other instances afterwards, off the request's path, one for a burst of commits
      // (src/feed/commit-announcer.ts).
      if (operation === 'notify') continue;
      counts[operation] = (counts[operation] ?? 0) + value;
    }
    return counts;
  }

  /** The statements `act` made, by operation. */
  async function statementsOf<T>(prepare: () => Promise<T>,
    act: (prepared: T) => Promise<Response>): Promise<{ status: number; statements: Counts }> {
    const prepared = await prepare();
    const before = await statementCounts();
    const response = await act(prepared);
    await response.arrayBuffer();
    const after = await statementCounts();
    const statements = Object.fromEntries(Object.entries(after)
      .map(([operation, count]) => [operation, count - (before[operation] ?? 0)]).filter(([, count]) => count !== 0));
    return { status: response.status, statements };
  }

  const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {},
    user: User = 'alice') =>
    rawRequest(service, method, path, { user, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', ...headers } });
  const replacement = { sightingMemo: 'replaced in one statement', vessel: { vesselId: -2 },
    sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-26T10:00' };
  const noPreparation = async () => undefined;

  it('when a sighting is created, then the service sends one statement', async () => {
    const created = await statementsOf(noPreparation, () => request('POST', '/sighting', buildSighting()));
    expect(created).to.deep.equal({ status: 201, statements: { with: 1 } });
  });

  it('when a sighting is replaced stating its version, ' +
    'then one statement; with a stale version, that statement and one read that tells 409', async () => {
    const id = await createSighting(service);
    const version = { value: 0 };
    expect(await statementsOf(noPreparation, async () => {
      const response = await request('PUT', `/sighting/${id}`,
        { ...replacement, sightingMemo: `replaced ${version.value}`, version: version.value });
      version.value += 1;
      return response;
    })).to.deep.equal({ status: 204, statements: { with: 1 } });
    expect(await statementsOf(noPreparation, () => request('PUT', `/sighting/${id}`, { ...replacement, version: 0 })))
      .to.deep.equal({ status: 409, statements: { with: 1, select: 1 } });
  });

  it('when a sighting is patched, then one read (the record to merge into) and one statement', async () => {
    const id = await createSighting(service);
    const etag = async () => (await request('GET', `/sighting/${id}`)).headers.get('ETag')!;
    const patched = await statementsOf(etag, (tag) => request('PATCH', `/sighting/${id}`,
      { sightingMemo: `patched ${tag}` }, { 'Content-Type': 'application/merge-patch+json', 'If-Match': tag }));
    expect(patched).to.deep.equal({ status: 204, statements: { select: 1, with: 1 } });
  });

  it('when a sighting is deleted, ' +
    'then one statement; an id that names no record, that statement and one read that tells 404', async () => {
    const deleted = await statementsOf(() => createSighting(service), (id) => request('DELETE', `/sighting/${id}`));
    expect(deleted).to.deep.equal({ status: 204, statements: { with: 1 } });
    expect(await statementsOf(noPreparation, () => request('DELETE', '/sighting/9007199254740000')))
      .to.deep.equal({ status: 404, statements: { with: 1, select: 1 } });
  });

  it('when a time zone is created, replaced and deleted by an admin, then one statement each', async () => {
    const create = () =>
      request('POST', '/timezone', { timezoneName: `Mars/${Date.now()}-${Math.random()}` }, {}, 'admin');
    expect(await statementsOf(noPreparation, create)).to.deep.equal({ status: 201, statements: { with: 1 } });
    const id = idFromLocation((await create()).headers.get('Location'));
    const version = { value: 0 };
    expect(await statementsOf(noPreparation, async () => {
      const response = await request('PUT', `/timezone/${id}`,
        { timezoneName: `Mars/${id}-${version.value}`, version: version.value }, {}, 'admin');
      version.value += 1;
      return response;
    })).to.deep.equal({ status: 204, statements: { with: 1 } });
    const deleted = await statementsOf(async () => idFromLocation((await create()).headers.get('Location')),
      (created) => request('DELETE', `/timezone/${created}`, undefined, {}, 'admin'));
    expect(deleted).to.deep.equal({ status: 204, statements: { with: 1 } });
  });
});
