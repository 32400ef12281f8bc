// A list may stream for longer than a statement may run: the bound applies to each fetch, not to the whole list.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';

describe('a list that streams for longer than the statement bound @pgbouncer', function () {
  const records = 60000;
  // The server's bound; the service's own on each fetch is a second longer (src/db/bounded-waits.ts). Two seconds, not
  // one: on a loaded machine a fetch through PgBouncer and TLS once took longer than the client's bound of 2 s.
  const boundMs = 2000;
  let service: TestService;
  before(async () => {
    // One connection: the statement after the list runs on the connection the list used.
    service = await startService({ DB_STATEMENT_TIMEOUT_MS: String(boundMs), DB_POOL_MAX: '1' });
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'slowly read ' || g, -1 from generate_series(${first}, ${last}) g`);
  });
  after(async () => { await service?.stop(); });

  it('when the client reads a long list slowly, taking longer than DB_STATEMENT_TIMEOUT_MS, ' +
    'then every record arrives and the session\'s bound is as it was', async () => {
    const boundNow = async () =>
      (await service.web.orm.em.fork().getConnection().execute('show statement_timeout'))[0] as unknown;
    const before = backend === 'postgresql' ? await boundNow() : undefined;
    // Uncompressed: compressed, the list would fit the sockets' buffers and leave the cursor before the pauses below.
    const headers =
      { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}`, 'Accept-Encoding': 'identity' };
    const response = await fetch(`${service.api}/sighting`, { headers });
    expect(response.status).to.equal(200);
    const started = performance.now();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Pauses between reads keep the list open for about four times the bound (and more than twice the client's own),
    // with more records than the sockets between them buffer.
    for (let chunk = await reader.read(), reads = 0; !chunk.done; chunk = await reader.read(), reads++) {
      text += decoder.decode(chunk.value, { stream: true });
      if (reads < 8) await new Promise((resolve) => setTimeout(resolve, boundMs / 2));
    }
    const seconds = (performance.now() - started) / 1000;

    const list = JSON.parse(text) as { sightingId: number }[];
    expect({ records: list.length, overTheBounds: seconds > 2 * boundMs / 1000 })
      .to.deep.equal({ records: records + 1, overTheBounds: true });
    // The connection the list used went back to the pool as it was: its transaction's `set local` ended with it
    // (PGlite has no such bound).
    if (backend === 'postgresql')
      expect(await boundNow()).to.deep.equal(before).and.to.have.property('statement_timeout');
    // Straight to the server (no direct URL beside DATABASE_URL), each session starts bounded at
    // DB_STATEMENT_TIMEOUT_MS.
    if (backend === 'postgresql' && !process.env.DATABASE_DIRECT_URL)
      expect(before).to.deep.equal({ statement_timeout: `${boundMs / 1000}s` });
  });
});
