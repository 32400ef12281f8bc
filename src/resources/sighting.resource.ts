// The sighting collection as data for the generic CRUD machinery.
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { containsPattern } from '../crud/like-pattern.ts';
import { Sighting } from '../db/entities/index.ts';
import { localizedName } from './vessel-names.ts';
import { vesselExample } from './vessel.resource.ts';
import { localDateTime, timeZone, existingVessel } from './sighting-fields.ts';

export const sightingResource: ResourceDescriptor<Sighting> = {
  name: 'sighting',
  entity: Sighting,
  idProperty: 'sightingId',
  populate: ['vessel.translations'],
  filters: { sightingId: 'sightingId', version: 'version', sightingMemo: 'sightingMemo', sightingTimezone: 'sightingTimezone', sightingDate: 'sightingDate', vesselId: 'vessel' },
  // `?mine=true`: the caller's own sightings (contract B, List); the creator itself is never part of a view.
  ownerFilter: { parameter: 'mine', property: 'creator' },
  access: { read: 'reader', create: 'writer', change: 'creator' },
  listView: (s, locale) => ({
    sightingId: s.sightingId,
    vessel: { vesselId: s.vessel.vesselId, vesselName: localizedName(s.vessel.translations, locale) },
    sightingTimezone: s.sightingTimezone ?? null,
    sightingDate: s.sightingDate ?? null,
  }),
  detailView: (s, locale) => ({
    version: s.version,
    sightingId: s.sightingId,
    sightingMemo: s.sightingMemo,
    vessel: { version: s.vessel.version, vesselId: s.vessel.vesselId, vesselName: localizedName(s.vessel.translations, locale) },
    sightingTimezone: s.sightingTimezone ?? null,
    sightingDate: s.sightingDate ?? null,
  }),
  async write(sighting, body, { em }) {
    const sightingTimezone = timeZone(body.sightingTimezone as string | null | undefined);
    const sightingDate = localDateTime(body.sightingDate as string | null | undefined);
    // Look the vessel up before assigning anything: a query auto-flushes pending changes, which would split one
    // update into two writes (two versions) and write half of it even if the rest fails.
    const vessel = await existingVessel(em, (body.vessel as { vesselId: number }).vesselId);
    Object.assign(sighting, { sightingMemo: body.sightingMemo as string, sightingTimezone, sightingDate, vessel });
  },
  example(body) {
    const vessel = body.vessel as Record<string, unknown> | undefined;
    return {
      ...(body.sightingId !== undefined && { sightingId: body.sightingId as number }),
      ...(body.version !== undefined && { version: body.version as number }),
      ...(body.sightingMemo !== undefined && { sightingMemo: { $ilike: containsPattern(body.sightingMemo as string) } }),
      ...(body.sightingTimezone !== undefined && { sightingTimezone: { $ilike: containsPattern(body.sightingTimezone as string) } }),
      ...(body.sightingDate !== undefined && { sightingDate: localDateTime(body.sightingDate as string | null) }),
      // By vesselId when given, else by the vessel's own fields (contract B, Query by example).
      ...(vessel && { vessel: vessel.vesselId !== undefined ? { vesselId: vessel.vesselId as number } : vesselExample(vessel) }),
    } as FilterQuery<Sighting>;
  },
};
