// Who else sighted a vessel, in numbers: sightings, distinct people, the caller's own; never a name.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting, createVessel } from '../support/fixtures.ts';

describe('vessel observers', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  it('when alice sighted a vessel twice and bob once, ' +
    'then each sees 3 sightings by 2 people and their own count', async () => {
    const vesselId = await createVessel(service);
    await createSighting(service, buildSighting({ vessel: { vesselId } }), 'alice');
    await createSighting(service, buildSighting({ vessel: { vesselId } }), 'alice');
    await createSighting(service, buildSighting({ vessel: { vesselId } }), 'bob');
    const asAlice = await (await apiClient(service, { user: 'alice' })).GET('/vessel/{id}/observers',
      { params: { path: { id: vesselId } } });
    const asBob = await (await apiClient(service, { user: 'bob' })).GET('/vessel/{id}/observers',
      { params: { path: { id: vesselId } } });
    expect(asAlice.data).to.deep.equal({ sightings: 3, observers: 2, mine: 2 });
    expect(asBob.data).to.deep.equal({ sightings: 3, observers: 2, mine: 1 });
  });

  it('when a vessel has no sightings, then zeros; an unknown vessel is a 404; XML is <observers>', async () => {
    const vesselId = await createVessel(service);
    const api = await apiClient(service, { user: 'viewer' });
    expect((await api.GET('/vessel/{id}/observers', { params: { path: { id: vesselId } } })).data)
      .to.deep.equal({ sightings: 0, observers: 0, mine: 0 });
    expect((await api.GET('/vessel/{id}/observers', { params: { path: { id: 987654321 } } })).response.status)
      .to.equal(404);
    const xml = await rawRequest(service, 'GET', `/vessel/${vesselId}/observers`, { headers: { Accept: 'text/xml' } });
    expect(await xml.text()).to.equal('<?xml version="1.0" encoding="UTF-8"?><observers><sightings>0</sightings>' +
      '<observers>0</observers><mine>0</mine></observers>');
  });
});
