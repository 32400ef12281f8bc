// The timezone collection as data for the generic CRUD machinery.
import type { ResourceDescriptor } from '../crud/resource-descriptor.ts';
import { field, fromFields, idField, versionField } from '../crud/fields.ts';
import { Timezone } from '../db/entities/timezone.entity.ts';

export default {
  name: 'timezone',
  entity: Timezone,
  idProperty: 'timezoneId',
  populate: [],
  access: { read: 'reader', create: 'admin', change: 'admin' },
  ...fromFields([versionField(), idField('timezoneId'), field('timezoneName')]),
} satisfies ResourceDescriptor<Timezone>;
