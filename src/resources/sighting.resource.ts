// The sighting collection as data for the generic CRUD machinery.
import type { FilterQuery } from '@mikro-orm/core';
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { containsPattern } from '../crud/like-pattern.ts';
import { Sighting } from '../db/entities/sighting.entity.ts';
import { localizedName, namesColumn } from './vessel-names.ts';
import { vesselExample } from './vessel.resource.ts';
import { localDateTime, timeZone, vesselReference } from './sighting-fields.ts';
import { localDateTimeText } from '../db/local-date-time.type.ts';

export const sightingResource: ResourceDescriptor<Sighting> = {
  name: 'sighting',
  entity: Sighting,
  idProperty: 'sightingId',
  populate: [],
  filters: { sightingId: 'sightingId', version: 'version', sightingMemo: 'sightingMemo', sightingTimezone: 'sightingTimezone', sightingDate: 'sightingDate', vesselId: 'vessel' },
  // `?mine=true`: the caller's own sightings (contract B, List); the creator itself is never part of a view.
  ownerFilter: { parameter: 'mine', property: 'creator' },
  access: { read: 'reader', create: 'writer', change: 'creator' },
  selectView: (qb) => qb
    .select(['r.version', 'r.sightingId', 'r.sightingMemo', 'r.vessel_id', 'r.sightingTimezone', 'r.sightingDate', 'v.version as vessel_version', namesColumn('"r"."vessel_id"')])
    .join('r.vessel', 'v'),
  listView: (row, locale) => ({
    sightingId: Number(row.sighting_id),
    vessel: { vesselId: Number(row.vessel_id), vesselName: localizedName(row.vessel_names, locale) },
    sightingTimezone: row.sighting_timezone,
    sightingDate: localDateTimeText(row.sighting_date),
  }),
  detailView: (row, locale) => ({
    version: row.version,
    sightingId: Number(row.sighting_id),
    sightingMemo: row.sighting_memo,
    vessel: { version: row.vessel_version, vesselId: Number(row.vessel_id), vesselName: localizedName(row.vessel_names, locale) },
    sightingTimezone: row.sighting_timezone,
    sightingDate: localDateTimeText(row.sighting_date),
  }),
  async write(sighting, body, { em }) {
    const sightingTimezone = timeZone(body.sightingTimezone as string | null | undefined);
    const sightingDate = localDateTime(body.sightingDate as string | null | undefined);
    const vessel = vesselReference(em, (body.vessel as { vesselId: number }).vesselId);
    Object.assign(sighting, { sightingMemo: body.sightingMemo as string, sightingTimezone, sightingDate, vessel });
  },
  // The vessel is checked by the foreign key when the row is written, not by loading it first (contract B, Create).
  references: { vessel_id: { field: 'vessel', key: 'sighting.vessel.notFound' } },
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
