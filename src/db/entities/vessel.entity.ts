// The vessel table; its names live in Translation rows owned by the vessel.
import { defineEntity, p } from '@mikro-orm/core';
import { Translation } from './translation.entity.ts';

export const VesselSchema = defineEntity({
  name: 'Vessel',
  tableName: 'vessel',
  properties: {
    vesselId: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
    // Set when the names change: the vessel row then changes too, so its version is bumped and checked.
    modifiedAt: p.datetime().length(3).nullable().hidden(),
    // Orphan removal implements the contract's "a removed translation is deleted".
    translations: () => p.oneToMany(Translation).mappedBy('vessel').orphanRemoval().orderBy({ translationId: 'asc' }),
  },
});

export class Vessel extends VesselSchema.class {}
VesselSchema.setClass(Vessel);
