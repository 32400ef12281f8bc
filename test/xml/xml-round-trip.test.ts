// Round trip: what GET answers as XML, PUT accepts unchanged, and it changes nothing (the version stays).
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { buildSighting, buildVessel, createSighting, createTimezone, createVessel,
  unique } from '../support/fixtures.ts';
import { xmlCall } from './xml-client.ts';

describe('XML: round trip', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** GET as XML, PUT that text back, GET again: the answers and both reads. */
  async function roundTrip(path: string,
    user: 'alice' | 'admin'): Promise<{ put: { status: number; etag: string | null }; before: string; after: string }> {
    const before = await (await xmlCall(service, 'GET', path, { user })).text();
    const put = await xmlCall(service, 'PUT', path, { user, body: before });
    const after = await (await xmlCall(service, 'GET', path, { user })).text();
    return { put: { status: put.status, etag: put.headers.get('etag') }, before, after };
  }

  it('when a vessel read as XML is put back unchanged, ' +
    'then it is 204 and version and names stay as they were', async () => {
    const id = await createVessel(service, buildVessel({ vesselName: { en: unique(' Warbird & <Bird of Prey> '),
      'pt-BR': 'Ave de Rapina 🚀', de_AT: 'a\r\nb\tc ]]> "q"' } }));
    const { put, before, after } = await roundTrip(`/vessel/${id}`, 'admin');
    expect({ put, after }).to.deep.equal({ put: { status: 204, etag: '"0"' }, after: before });
    const json = await (await xmlCall(service, 'GET', `/vessel/${id}`,
      { accept: 'application/json' })).json() as { vesselName: Record<string, string> };
    expect(json.vesselName['de_AT']).to.equal('a\r\nb\tc ]]> "q"');
  });

  it('when a sighting with nulls read as XML is put back unchanged, ' +
    'then it is 204 and the nulls stay null', async () => {
    const id = await createSighting(service, buildSighting());
    const { put, before, after } = await roundTrip(`/sighting/${id}`, 'alice');
    expect({ put, after, nil: before.includes('<sightingTimezone xsi:nil="true"/>') })
      .to.deep.equal({ put: { status: 204, etag: '"0"' }, after: before, nil: true });
    const json = await (await xmlCall(service, 'GET', `/sighting/${id}`,
      { accept: 'application/json' })).json() as Record<string, unknown>;
    expect([json.version, json.sightingTimezone, json.sightingDate]).to.deep.equal([0, null, null]);
  });

  it('when a sighting with every field set read as XML is put back unchanged, ' +
    'then it is 204 and nothing changes', async () => {
    const vesselId = await createVessel(service);
    const id = await createSighting(service, buildSighting({
      sightingMemo: unique('  <b>&amp;</b> ]]> \u00e4\u00df '), vessel: { vesselId },
      sightingTimezone: 'America/Argentina/Buenos_Aires', sightingDate: '2026-02-28T23:59:59.999',
    }));
    const { put, before, after } = await roundTrip(`/sighting/${id}`, 'alice');
    expect({ put, after }).to.deep.equal({ put: { status: 204, etag: '"0"' }, after: before });
  });

  it('when a vessel without names and a sighting of it are read as XML and put back, ' +
    'then the empty map and the null name survive', async () => {
    const vesselId = await createVessel(service, { vesselName: {} });
    const id = await createSighting(service, buildSighting({ vessel: { vesselId } }));
    const vessel = await roundTrip(`/vessel/${vesselId}`, 'admin');
    const sighting = await roundTrip(`/sighting/${id}`, 'alice');
    expect({
      vessel: { put: vessel.put, same: vessel.after === vessel.before, empty: vessel.before.includes('<vesselName/>') },
      sighting: { put: sighting.put, same: sighting.after === sighting.before,
        nil: sighting.before.includes('<vesselName xsi:nil="true"/>') },
    }).to.deep.equal({
      vessel: { put: { status: 204, etag: '"0"' }, same: true, empty: true },
      sighting: { put: { status: 204, etag: '"0"' }, same: true, nil: true },
    });
  });

  it('when a time zone read as XML is put back unchanged, then it is 204 and the version stays', async () => {
    const id = await createTimezone(service);
    const { put, before, after } = await roundTrip(`/timezone/${id}`, 'admin');
    expect({ put, after }).to.deep.equal({ put: { status: 204, etag: '"0"' }, after: before });
  });

  it('when a vessel read as XML is put back with one name changed, ' +
    'then it is 204 and the version goes up by one', async () => {
    const id = await createVessel(service, buildVessel({ vesselName: { en: 'Old name' } }));
    const before = await (await xmlCall(service, 'GET', `/vessel/${id}`, { user: 'admin' })).text();
    const put =
      await xmlCall(service, 'PUT', `/vessel/${id}`, { user: 'admin', body: before.replace('Old name', 'New name') });
    const after = await (await xmlCall(service, 'GET', `/vessel/${id}`, { user: 'admin' })).text();
    expect({ status: put.status, etag: put.headers.get('etag'), after })
      .to.deep.equal({ status: 204, etag: '"1"',
        after: before.replace('Old name', 'New name').replace('<version>0</version>', '<version>1</version>') });
  });
});
