// A vessel with many sightings for a browser test: one recorded through the API, the rest written beside the service
// by the same creator (thousands of API calls would take most of a test's bound on a loaded machine).
import { bulkInsert } from './bulk-insert.ts';
import { buildSighting, createSighting, createVessel } from './fixtures.ts';
import type { TestService } from './service.ts';
import type { User } from './tokens.ts';

export interface ManySightings {
  /** Whose they are; default alice. */
  user?: User;
  /** The memos' word (letters and digits only): `<memo> 0` for the first, `<memo> <n>` for the rest; default `row`. */
  memo?: string;
}

/** A new vessel with `count` sightings of `user`'s; its id and the first (oldest) sighting's. */
export async function vesselWithSightings(service: TestService, count: number,
  { user = 'alice', memo }: ManySightings = {}): Promise<{ vesselId: number; first: number }> {
  const vesselId = await createVessel(service);
  const first = await createSighting(service,
    buildSighting({ vessel: { vesselId }, ...memo !== undefined && { sightingMemo: `${memo} 0` } }), user);
  await bulkInsert(service, count - 1, (from, to) => `insert into sighting (sighting_memo, vessel_id, creator)
    select '${memo ?? 'row'} ' || g, ${vesselId}, (select creator from sighting where sighting_id = ${first})
    from generate_series(${from}, ${to}) g`);
  return { vesselId, first };
}
