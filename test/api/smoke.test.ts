// Smoke: the demo sighting is readable through the typed client.
import { expect } from 'chai';
import { sharedService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';

describe('smoke', () => {
  it('when alice reads sighting -1, then she gets the demo sighting', async () => {
    const api = await apiClient(await sharedService());
    const { data, response } = await api.GET('/sighting/{id}', { params: { path: { id: -1 } } });
    expect(response.status).to.equal(200);
    expect(data).to.deep.equal({ version: 0, sightingId: -1, sightingMemo: 'unheimlich!', vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null, sightingDate: null });
  });
});
