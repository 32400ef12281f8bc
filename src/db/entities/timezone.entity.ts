// The timezone table: IANA zones seeded with negative ids, user-created zones with positive ones.
import { defineEntity, p } from '@mikro-orm/core';
import { textLength } from '../../contract/bounds.ts';

export const TimezoneSchema = defineEntity({
  name: 'Timezone',
  tableName: 'timezone',
  indexes: [{ name: 'timezone_timezone_name_trgm',
    expression: 'create index "timezone_timezone_name_trgm" on "timezone" using gin ("timezone_name" gin_trgm_ops)' }],
  properties: {
    timezoneId: p.bigint('number').primary().autoincrement(),
    version: p.integer().version().default(0),
    timezoneName: p.string().length(textLength('TimezoneName').max).unique(),
  },
});

export class Timezone extends TimezoneSchema.class {}
TimezoneSchema.setClass(Timezone);
