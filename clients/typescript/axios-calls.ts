// A consumer's calls through the typescript-axios SDK as the project generates it (clients/build.sh typescript-axios,
// `useSingleRequestParameter`): each call takes one object naming the parameters it sets, as typescript-fetch's do.
// Never run: test/clients/sdk-request-objects.test.ts type-checks it against the generated sources.
import { Configuration, SightingApi } from './sdk/index';

const sightings = new SightingApi(new Configuration({ basePath: 'http://localhost:8080/api', accessToken: 'token' }));

export const calls = [
  sightings.listSightings({ vesselId: -1, limit: 10, sort: '-sightingDate' }),
  sightings.listSightingsInDetailView({ mine: true }),
  sightings.createSightingReturningRecord({ sightingCreate: { sightingMemo: 'hi', vessel: { vesselId: -1 } } }),
  sightings.patchSighting({ id: -1, ifMatch: '"0"', sightingPatch: { sightingMemo: 'later' } }),
];
