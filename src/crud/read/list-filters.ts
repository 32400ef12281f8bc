// A list's filters, worked out once per resource from its list operation's query parameters in openapi.yaml: a
// parameter naming a property is an equality; `<property>From` and `<property>Before` bound it (from inclusive, before
// exclusive: adjacent ranges neither overlap nor leave a gap).
import { EntitySchema } from '@mikro-orm/core';
import { openApiDocument } from '../../contract/document.ts';
import { parametersOf } from '../../contract/parameters.ts';
import type { ResourceDescriptor } from '../resource-descriptor.ts';

export interface ListFilter {
  parameter: string;
  property: string;
  operator: '$eq' | '$gte' | '$lt';
}

const boundOperators = { From: '$gte', Before: '$lt' } as const;

/**
 * Every filter of the list: every query parameter but paging, ordering (`sort` and the resource's `leadingOrders`),
 * the view, a download's and the owner's.
 */
export function listFilters<E extends object>(resource: ResourceDescriptor<E>): readonly ListFilter[] {
  const properties = EntitySchema.REGISTRY.get(resource.entity)!.meta.properties;
  return parametersOf(openApiDocument.paths[`/${resource.name}`]?.get)
    .filter(({ name, in: where }) => where === 'query'
      && !['limit', 'after', 'sort', 'cursor', 'view', 'download', resource.owner?.listParameter,
        ...Object.keys(resource.leadingOrders ?? {})].includes(name))
    .map(({ name }): ListFilter => {
      const property = resource.filterProperties?.[name] ?? name;
      if (property in properties) return { parameter: name, property, operator: '$eq' };
      const bound = /^(\w+)(From|Before)$/.exec(name) as [string, string, keyof typeof boundOperators] | null;
      if (bound && bound[1] in properties) return { parameter: name, property: bound[1],
        operator: boundOperators[bound[2]] };
      // Fail at start, not on the first list that uses it.
      throw new Error(`openapi.yaml: GET /${resource.name} filters by ${name}, no property of ` +
        `${resource.entity.name}: add it to filterProperties`);
    });
}

/**
 * The conditions the request's filter parameters ask for: `{ sightingDate: { $gte: …, $lt: … }, vessel: { $eq: 5 } }`.
 */
export function listConditions(filters: readonly ListFilter[],
  query: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const conditions: Record<string, Record<string, unknown>> = {};
  for (const { parameter, property, operator } of filters) {
    if (query[parameter] !== undefined) (conditions[property] ??= {})[operator] = query[parameter];
  }
  return conditions;
}
