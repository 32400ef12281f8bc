// The timezone collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { containsPattern } from '../crud/like-pattern.ts';
import { Timezone } from '../db/entities/timezone.entity.ts';

export const timezoneResource: ResourceDescriptor<Timezone> = {
  name: 'timezone',
  entity: Timezone,
  idProperty: 'timezoneId',
  populate: [],
  filters: { timezoneId: 'timezoneId', timezoneName: 'timezoneName', version: 'version' },
  access: { read: 'reader', create: 'admin', change: 'admin' },
  selectView: (qb) => qb.select(['r.version', 'r.timezoneId', 'r.timezoneName']),
  listView: (row) => ({ timezoneId: Number(row.timezone_id), timezoneName: row.timezone_name }),
  detailView: (row) => ({ version: row.version, timezoneId: Number(row.timezone_id), timezoneName: row.timezone_name }),
  async write(zone, body) {
    zone.timezoneName = body.timezoneName as string;
  },
  example: (body) => ({
    ...(body.timezoneId !== undefined && { timezoneId: body.timezoneId as number }),
    ...(body.version !== undefined && { version: body.version as number }),
    ...(body.timezoneName !== undefined && { timezoneName: { $ilike: containsPattern(body.timezoneName as string) } }),
  }),
};
