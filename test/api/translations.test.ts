// A vessel's names (a language map): saved with the vessel, replaced as a whole by PUT, versioned with it.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';
import { createVessel, unique } from '../support/fixtures.ts';

describe('vessel names (translations)', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  /** Creates a vessel with these names, replaces them with `next`, and answers the PUT's response and the read back. */
  async function replaceNames(names: Record<string, string>, next: Record<string, string>) {
    const api = await apiClient(service, { user: 'admin' });
    const id = await createVessel(service, { vesselName: names });
    const path = { params: { path: { id } } };
    const { response } = await api.PUT('/vessel/{id}', { ...path, body: { version: 0, vesselName: next } });
    const read = await api.GET('/vessel/{id}', path);
    return { id, response, readBack: read.data, etag: read.response.headers.get('ETag') };
  }

  it('when a vessel is created with names, then they are saved with it and read back exactly', async () => {
    const api = await apiClient(service);
    const names = { en: unique('Voyager'), de: unique('Reisender'), 'pt-BR': unique('Viajante') };
    const id = await createVessel(service, { vesselName: names });

    const { data, response } = await api.GET('/vessel/{id}', { params: { path: { id } } });

    expect(response.status).to.equal(200);
    expect(data).to.deep.equal({ version: 0, vesselId: id, vesselName: names });
  });

  it('when a name is left out of the PUT, then that translation is deleted', async () => {
    const names = { en: unique('Voyager'), de: unique('Reisender'), fr: unique('Voyageur') };

    const { id, response, readBack } = await replaceNames(names, { en: names.en, fr: names.fr });

    expect(response.status).to.equal(204);
    expect(readBack).to.deep.equal({ version: 1, vesselId: id, vesselName: { en: names.en, fr: names.fr } });
  });

  it('when a name\'s text changes, then the translation is updated', async () => {
    const names = { en: unique('Voyager'), de: unique('Reisender') };
    const changed = { en: names.en, de: unique('Reisende') };

    const { id, response, readBack } = await replaceNames(names, changed);

    expect(response.status).to.equal(204);
    expect(readBack).to.deep.equal({ version: 1, vesselId: id, vesselName: changed });
  });

  it('when a new language is added, then the translation is added', async () => {
    const names = { en: unique('Voyager') };
    const added = { en: names.en, de: unique('Reisender'), en_US: unique('Voyager US') };

    const { id, response, readBack } = await replaceNames(names, added);

    expect(response.status).to.equal(204);
    expect(readBack).to.deep.equal({ version: 1, vesselId: id, vesselName: added });
  });

  it('when removing, changing and adding at once, then the names read back are exactly the new map', async () => {
    const names = { en: unique('Voyager'), de: unique('Reisender'), fr: unique('Voyageur') };
    const next = { en: unique('Voyager II'), es: unique('Viajero') };

    const { id, readBack } = await replaceNames(names, next);

    expect(readBack).to.deep.equal({ version: 1, vesselId: id, vesselName: next });
  });

  it('when only the names change, then the vessel\'s version goes up by one and its ETag says so', async () => {
    const names = { en: unique('Voyager') };

    const { response, readBack, etag } = await replaceNames(names, { en: unique('Voyager') });

    expect(response.status).to.equal(204);
    expect(response.headers.get('ETag')).to.equal('"1"');
    expect(etag).to.equal('"1"');
    expect(readBack!.version).to.equal(1);
  });

  it('when the names changed, ' +
    'then an update carrying the version from before is a 409 and the names stay', async () => {
    const api = await apiClient(service, { user: 'admin' });
    const names = { en: unique('Voyager') };
    const next = { en: unique('Voyager II') };
    const { id, readBack } = await replaceNames(names, next);

    const { response } = await api.PUT('/vessel/{id}',
      { params: { path: { id } }, body: { version: 0, vesselName: { en: unique('Voyager III') } } });

    expect(response.status).to.equal(409);
    expect((await api.GET('/vessel/{id}', { params: { path: { id } } })).data).to.deep.equal(readBack);
  });

  it('when the vessels are listed in German, then the list shows the German name', async () => {
    const names = { en: unique('Voyager'), de: unique('Reisender') };
    const id = await createVessel(service, { vesselName: names });
    const german = await apiClient(service, { headers: { 'Accept-Language': 'de-DE, en;q=0.5' } });

    const { data } = await german.GET('/vessel', { params: { query: { vesselId: id } } });

    expect(data).to.deep.equal([{ vesselId: id, vesselName: names.de }]);
  });

  const tooMany =
    { vesselName: { message: 'A vessel has at most 50 names, one per language.', key: 'vessel.name.tooMany' } };
  for (const count of [51, 3000]) {
    it(`when a vessel is created with ${count} names, ` +
      `then it is one 400 on vesselName and nothing is written`, async () => {
      const api = await apiClient(service, { user: 'admin' });
      // Short texts, so even 3000 of them stay under the 64 kB body limit.
      const vesselName = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'n']));
      const { response, error } = await api.POST('/vessel', { body: { vesselName } });
      expect({ status: response.status, error, location: response.headers.get('Location') })
        .to.deep.equal({ status: 400, error: tooMany, location: null });
    });
  }

  it('when a vessel is created with 50 names, then all 50 are saved', async () => {
    const vesselName = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, unique('name')]));
    const id = await createVessel(service, { vesselName });
    const { data } = await (await apiClient(service)).GET('/vessel/{id}', { params: { path: { id } } });
    expect(data?.vesselName).to.deep.equal(vesselName);
  });
});
