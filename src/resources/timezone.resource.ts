// The timezone collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { rootFields } from '../crud/root-alias.ts';
import { Timezone } from '../db/entities/timezone.entity.ts';

export default {
  name: 'timezone',
  entity: Timezone,
  idProperty: 'timezoneId',
  populate: [],
  access: { read: 'reader', create: 'admin', change: 'admin' },
  selectView: (qb, view) => qb.select(rootFields(...view === 'list' ? [] : ['version'], 'timezoneId', 'timezoneName')),
  listView: (row) => ({ timezoneId: Number(row.timezone_id), timezoneName: row.timezone_name }),
  detailView: (row) => ({ version: row.version, timezoneId: Number(row.timezone_id), timezoneName: row.timezone_name }),
  values: (body) => ({ timezoneName: body.timezoneName as string }),
} satisfies ResourceDescriptor<Timezone>;
