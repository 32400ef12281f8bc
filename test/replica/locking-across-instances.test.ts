// Optimistic locking holds across instances: concurrent PUTs of one version through both, exactly one wins.
import { expect } from 'chai';
import { apiClient } from '../support/api-client.ts';
import { buildSighting, createSighting } from '../support/fixtures.ts';
import { replication, SKIP_REASON, startTwoInstances, type TwoInstances } from '../support/replication.ts';

const setup = replication();

describe('optimistic locking across instances (primary + replica)', function () {
  let both: TwoInstances;

  before(async function () {
    if (!setup) {
      console.warn(`    ${SKIP_REASON}`);
      return this.skip();
    }
    both = await startTwoInstances(setup);
  });
  after(async () => { await both?.stop(); });

  it('when instances a and b both PUT version 0 of one sighting at once, ' +
    'then one answers 204, the other 409, and the record has the winner\'s memo at version 1', async () => {
    const [a, b] = [await apiClient(both.a), await apiClient(both.b)];
    for (let round = 0; round < 5; round++) {
      const id = await createSighting(both.a, buildSighting());
      const put = (client: typeof a, memo: string) => client.PUT('/sighting/{id}',
        { params: { path: { id } }, body: { version: 0, sightingMemo: memo, vessel: { vesselId: -1 } } });
      const [fromA, fromB] = await Promise.all([put(a, `from a ${round}`), put(b, `from b ${round}`)]);
      const statuses = [fromA.response.status, fromB.response.status];

      expect([...statuses].sort(), `round ${round}`).to.deep.equal([204, 409]);
      const winner = statuses[0] === 204 ? `from a ${round}` : `from b ${round}`;
      const loser = statuses[0] === 204 ? fromB : fromA;
      expect(loser.error).to.deep.equal(
        { general: 'The record was changed by someone else in the meantime; read it again and repeat your change.' });
      const read = await b.GET('/sighting/{id}', { params: { path: { id } } });
      expect({ version: read.data?.version, memo: read.data?.sightingMemo })
        .to.deep.equal({ version: 1, memo: winner });
    }
  });
});
