// The sighting collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { exampleCondition } from '../crud/read/query-by-example.ts';
import { rootColumn, rootField, rootFields } from '../crud/root-alias.ts';
import { Sighting } from '../db/entities/sighting.entity.ts';
import { joinNames, localizedName, namesColumn } from './vessel-names.ts';
import vesselResource from './vessel.resource.ts';
import { localDateTime, timeZone } from './sighting-fields.ts';
import { localDateTimeText } from '../db/local-date-time-text.ts';

export default {
  name: 'sighting',
  entity: Sighting,
  idProperty: 'sightingId',
  populate: [],
  filterProperties: { vesselId: 'vessel' },
  access: { read: 'reader', create: 'writer', change: 'creator' },
  // `?mine=true`: the caller's own sightings (docs/behaviour.md#list); the creator itself is never part of a view.
  owner: { property: 'creator', listParameter: 'mine' },
  // A list shows no memo and no versions: it reads neither, nor joins the vessel's row (its names are joined by id).
  selectView: (qb, view) => joinNames(view === 'list'
    ? qb.select([...rootFields('sightingId', 'vessel_id', 'sightingTimezone', 'sightingDate'), namesColumn])
    : qb.select([...rootFields('version', 'sightingId', 'sightingMemo', 'vessel_id', 'sightingTimezone',
      'sightingDate'), 'v.version as vessel_version', namesColumn]).join(rootField('vessel'), 'v'),
    rootColumn('vessel_id')),
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
    vessel: { version: row.vessel_version, vesselId: Number(row.vessel_id),
      vesselName: localizedName(row.vessel_names, locale) },
    sightingTimezone: row.sighting_timezone,
    sightingDate: localDateTimeText(row.sighting_date),
  }),
  values: (body) => ({
    sightingMemo: body.sightingMemo as string,
    // By its id: saving a sighting never loads, creates or changes a vessel.
    vessel: (body.vessel as { vesselId: number }).vesselId,
    sightingTimezone: timeZone(body.sightingTimezone as string | null | undefined),
    sightingDate: localDateTime(body.sightingDate as string | null | undefined),
  }),
  // The vessel is checked by the foreign key when the row is written, not by loading it first
  // (docs/behaviour.md#create).
  references: { vessel_id: { field: 'vessel', key: 'sighting.vessel.notFound' } },
  exampleFields: {
    // Any spelling the format admits names the same stored value.
    sightingDate: (date) => ({ sightingDate: localDateTime(date as string | null) }),
    // By vesselId when given, else by the vessel's own fields (docs/behaviour.md#query-by-example).
    vessel: (example, context) => {
      const vessel = example as Record<string, unknown>;
      return { vessel: vessel.vesselId !== undefined ? { vesselId: vessel.vesselId as number }
        : exampleCondition(vesselResource, vessel, context) };
    },
  },
} satisfies ResourceDescriptor<Sighting>;
