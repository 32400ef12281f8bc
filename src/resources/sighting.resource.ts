// The sighting collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { exampleCondition } from '../crud/read/query-by-example.ts';
import { field, fromFields, idField, versionField } from '../crud/fields.ts';
import { Sighting } from '../db/entities/sighting.entity.ts';
import { vesselNameProperty } from '../db/entities/vessel-name-formula.ts';
import vesselResource from './vessel.resource.ts';
import { dateField, localDateTime, timeZoneField, vesselReference } from './sighting-fields.ts';

export default {
  name: 'sighting',
  entity: Sighting,
  idProperty: 'sightingId',
  populate: [],
  filterProperties: { vesselId: 'vessel' },
  // `vesselNameOrder=asc`: by the vessel's name as the list shows it, in the caller's language, before `sort`.
  leadingOrders: { vesselNameOrder: 'vesselName' },
  localizedSortProperties: { vesselName: vesselNameProperty },
  access: { read: 'reader', create: 'writer', change: 'creator' },
  // `?mine=true`: the caller's own sightings (docs/behaviour.md#list); the creator itself is never part of a view.
  owner: { property: 'creator', listParameter: 'mine' },
  // A list shows no memo and no versions: it reads neither, nor joins the vessel's row (its names are joined by id).
  ...fromFields([
    versionField(),
    idField('sightingId'),
    field('sightingMemo', { detailOnly: true }),
    vesselReference,
    timeZoneField('sightingTimezone'),
    dateField('sightingDate'),
  ]),
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
