// The sighting table: one vessel seen by one person at a local date-time in a time zone.
import { defineEntity, p } from '@mikro-orm/core';
import { Vessel } from './vessel.entity.ts';
import { LocalDateTimeType } from '../local-date-time.type.ts';

export const SightingSchema = defineEntity({
  name: 'Sighting',
  tableName: 'sighting',
  properties: {
    sightingId: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
    sightingMemo: p.string().length(4000),
    // Restrict, not cascade: deleting a vessel that is still sighted is a 409 (contract B, Delete).
    vessel: () => p.manyToOne(Vessel).deleteRule('restrict').fieldName('vessel_id'),
    sightingTimezone: p.string().length(64).nullable(),
    sightingDate: p.type(LocalDateTimeType).nullable(),
    // The token subject of whoever created it; used for ownership, never shown.
    creator: p.string().length(255).nullable().hidden(),
  },
});

export class Sighting extends SightingSchema.class {}
SightingSchema.setClass(Sighting);
