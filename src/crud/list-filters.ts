// A list's equality filters, worked out once per resource from its list operation's query parameters in openapi.yaml.
import { EntitySchema } from '@mikro-orm/core';
import { openApiDocument } from '../contract/document.ts';
import { parametersOf } from '../contract/parameters.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';

/** `[query parameter, entity property]` of each filter: every parameter but paging, ordering and the owner's. */
export function listFilters<E extends object>(resource: ResourceDescriptor<E>): ReadonlyArray<readonly [string, string]> {
  const properties = EntitySchema.REGISTRY.get(resource.entity)!.meta.properties;
  const filters = parametersOf(openApiDocument.paths[`/${resource.name}`]?.get)
    .filter(({ name, in: where }) => where === 'query' && !['limit', 'after', 'sort', 'cursor', resource.owner?.listParameter].includes(name))
    .map(({ name }) => [name, resource.filterProperties?.[name] ?? name] as const);
  // Fail at start, not on the first list that uses it.
  const unmapped = filters.find(([, property]) => !(property in properties));
  if (unmapped) throw new Error(`openapi.yaml: GET /${resource.name} filters by ${unmapped[0]}, no property of ${resource.entity.name}: add it to filterProperties`);
  return filters;
}
