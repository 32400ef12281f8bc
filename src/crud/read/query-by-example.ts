// Query by example (docs/behaviour.md#query-by-example): each field the example sets is one condition, by one rule
// unless the resource says otherwise.
import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext, ResourceDescriptor, WireRecord } from '../resource-descriptor.ts';

/**
 * The rule: a text matches as a case-insensitive substring anywhere in the value (%, _ and \ literal), anything else by
 * equality.
 */
export function matching(value: unknown): unknown {
  return typeof value === 'string' ? { $ilike: `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } : value;
}

/** The resource's own rule for a field the example names: a field `constructor` is no rule of Object's. */
const ownRule = <E extends object>(resource: ResourceDescriptor<E>, field: string) =>
  resource.exampleFields && Object.hasOwn(resource.exampleFields, field) ? resource.exampleFields[field] : undefined;

/** The condition an example sets; `{}` matches every record. */
export function exampleCondition<E extends object>(resource: ResourceDescriptor<E>, example: WireRecord,
  context: RequestContext): FilterQuery<E> {
  const conditions = Object.entries(example).filter(([, value]) => value !== undefined)
    .map(([field, value]) => ownRule(resource, field)?.(value, context) ?? { [field]: matching(value) });
  return (conditions.length === 1 ? conditions[0] : { $and: conditions }) as FilterQuery<E>;
}
