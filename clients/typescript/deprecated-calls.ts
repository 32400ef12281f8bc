// A consumer's code that still calls the operations the contract deprecates, beside their successors. Never run:
// test/clients/sdk-deprecations.test.ts installs the npm package beside it and asks the TypeScript compiler (its
// language service, what an editor strikes through and eslint's @typescript-eslint/no-deprecated reports) which uses
// are deprecated.
import { Configuration, SightingApi, TimezoneApi, VesselApi } from 'sighting-client';

const configuration = new Configuration({ basePath: 'http://localhost:8080/api' });
const [timezones, vessels, sightings] =
  [new TimezoneApi(configuration), new VesselApi(configuration), new SightingApi(configuration)];

export const deprecated = [
  // Deprecated since 1.2.0: one version of a record.
  timezones.getTimezoneVersion({ id: -1, version: 0 }),
  vessels.getVesselVersion({ id: -1, version: 0 }),
  sightings.getSightingVersion({ id: -1, version: 0 }),
  sightings.getSightingVersionRaw({ id: -1, version: 0 }),
];

export const successors = [
  timezones.listTimezoneVersions({ id: -1, version: 0 }),
  vessels.listVesselVersions({ id: -1, version: 0 }),
  sightings.listSightingVersions({ id: -1, version: 0 }),
  sightings.listSightingVersionsRaw({ id: -1, version: 0 }),
];
// Not here: `version` in a patch's body (deprecated since 1.1.0). The model marks it, but the compiler reports a
// deprecated property only where it is read, never where an object literal writes it.
