// A whole list that ends within its first rows (most queries by example) is read as a page is: it needs no place in
// the streamed reads' share, so long lists holding every place do not keep it waiting.
import { expect } from 'chai';
import type { Socket } from 'node:net';
import { backend, startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { bulkInsert } from '../support/bulk-insert.ts';
import { eventually } from '../support/condition.ts';
import { neverRead } from '../support/leaving-clients.ts';
import type { StreamShare } from '../../src/db/stream-share.ts';

const shareOf = (service: TestService) => service.web.app!.locals.streamShare as StreamShare;

describe(`short whole lists beside long ones (${backend})`, function () {
  this.timeout(300_000);
  // More list than the sockets between server and client buffer: a client that never reads keeps its list's place.
  const records = 60_000;
  let service: TestService;
  let headers: Record<string, string>;
  const sockets: Socket[] = [];
  before(async () => {
    // Places are held for as long as a client does not read: nothing lets go of them during the test.
    service = await startService({ DB_POOL_MAX: '6', STREAM_WRITE_TIMEOUT_MS: '600000',
      STREAM_IDLE_RELEASE_MS: '600000' });
    headers = { Authorization: `Bearer ${await tokenFor(service.realm, 'alice')}` };
    await bulkInsert(service, records, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'held ' || g, -1 from generate_series(${first}, ${last}) g`);
    await bulkInsert(service, 3, (first, last) => `insert into sighting (sighting_memo, vessel_id)
      select 'rare marmot ' || g, -2 from generate_series(${first}, ${last}) g`);
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await service?.stop();
  });

  it('when long lists hold every place of the share, then a short query by example and a short filtered list are ' +
    'answered whole, and take no place', async () => {
    const share = shareOf(service);
    for (let i = 0; i < share.places; i++) sockets.push(neverRead(service.url, { path: '/api/sighting', headers }));
    await eventually(() => share.held === share.places);

    const query = await fetch(`${service.api}/sighting/qbe`, { method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ sightingMemo: 'marmot' }) });
    expect(query.status).to.equal(200);
    const found = await query.json() as Array<{ sightingMemo: string }>;
    expect(found.map(({ sightingMemo }) => sightingMemo)).to.deep.equal(['rare marmot 1', 'rare marmot 2',
      'rare marmot 3']);
    expect(query.headers.get('Content-Length')).to.equal(String(Buffer.byteLength(JSON.stringify(found))));

    const none = await fetch(`${service.api}/sighting/qbe`, { method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ sightingMemo: 'nowhere' }) });
    expect(none.status).to.equal(204);

    const list = await fetch(`${service.api}/sighting?vesselId=-2`, { headers });
    expect(list.status).to.equal(200);
    const rows = await list.json() as Array<{ vessel: { vesselId: number } }>;
    expect(rows.map(({ vessel }) => vessel.vesselId)).to.deep.equal([-2, -2, -2]);
    expect(share.held).to.equal(share.places);
  });
});
