// PGlite in a data folder keeps what was written across restarts (DATA_DIR).
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, backend } from '../support/service.ts';
import { apiClient } from '../support/api-client.ts';

describe('PGlite data folder', () => {
  let dataDir: string;
  before(function () {
    if (backend !== 'pglite') this.skip(); // DATA_DIR configures the embedded database only.
  });
  beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'sighting-data-')); });
  afterEach(async () => { await rm(dataDir, { recursive: true, force: true }); });

  it('when the service restarts on the same DATA_DIR, ' +
    'then a vessel created before is still there beside the demo data', async () => {
    const first = await startService({ DATA_DIR: dataDir });
    const created =
      await (await apiClient(first, { user: 'admin' })).POST('/vessel', { body: { vesselName: { en: 'Persistent' } } });
    await first.stop();
    expect(created.response.status).to.equal(201);
    const id = Number(created.response.headers.get('Location')!.split('/').pop());

    const second = await startService({ DATA_DIR: dataDir });
    try {
      const api = await apiClient(second, { user: 'admin' });
      const { data, response } = await api.GET('/vessel/{id}', { params: { path: { id } } });
      expect(response.status).to.equal(200);
      expect(data).to.deep.equal({ version: 0, vesselId: id, vesselName: { en: 'Persistent' } });
      const demo = await api.GET('/vessel', { params: { query: { vesselId: -1 } } });
      expect(demo.data).to.deep.equal([{ vesselId: -1, vesselName: 'Klingon Warbird' }]);
    } finally {
      await second.stop();
    }
  });
});
