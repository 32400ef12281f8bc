// The sighting table: one vessel seen by one person at a local date-time in a time zone.
import { defineEntity, p } from '@mikro-orm/core';
import { Vessel } from './vessel.entity.ts';
import { LocalDateTimeType } from '../local-date-time.type.ts';
import { textLength } from '../../contract/bounds.ts';
import { vesselNameFormulas } from './vessel-name-formula.ts';

export const SightingSchema = defineEntity({
  name: 'Sighting',
  tableName: 'sighting',
  // As migration 0001 made them, so the schema diff stays empty: trigram GIN indexes for query by example's substring
  // search.
  indexes: [
    { name: 'sighting_vessel_id_index', properties: ['vessel'] },
    { name: 'sighting_sighting_memo_trgm',
      expression: 'create index "sighting_sighting_memo_trgm" on "sighting" using gin ("sighting_memo" gin_trgm_ops)' },
    { name: 'sighting_sighting_timezone_trgm',
      expression: 'create index "sighting_sighting_timezone_trgm" on "sighting" using gin ("sighting_timezone" ' +
      'gin_trgm_ops)' },
  ],
  properties: {
    sightingId: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
    sightingMemo: p.string().length(textLength('SightingMemo').max),
    // Restrict, not cascade: deleting a vessel that is still sighted is a 409 (docs/behaviour.md#delete).
    vessel: () =>
      p.manyToOne(Vessel).deleteRule('restrict').updateRule('cascade').fieldName('vessel_id').foreignKeyName(
      'sighting_vessel_id_fkey'),
    sightingTimezone: p.string().length(textLength('SightingTimezone').max).nullable(),
    sightingDate: p.type(LocalDateTimeType).nullable(),
    // The token subject of whoever created it; used for ownership, never shown.
    creator: p.string().length(255).nullable().hidden(),
    // The vessel's name in each language the API speaks, as its list shows it: what `sort=vesselName` orders by.
    // Computed, not stored: lazy (never read with the row) and hidden (never written out).
    ...vesselNameFormulas,
  },
});

export class Sighting extends SightingSchema.class {}
SightingSchema.setClass(Sighting);
