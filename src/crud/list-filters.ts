// A list's equality filters, worked out once per resource from its list operation's query parameters in openapi.yaml.
import { EntitySchema } from '@mikro-orm/core';
import { operationFor, parametersOf } from '../contract/operations.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';

/** Paging, which the list handler reads itself (contract B, List). */
const paging = new Set(['limit', 'after']);

/** `[query parameter, entity property]` of each filter; a parameter that names no property stops the start. */
export function listFilters<E extends object>(resource: ResourceDescriptor<E>): ReadonlyArray<readonly [string, string]> {
  const properties = EntitySchema.REGISTRY.get(resource.entity)?.meta.properties ?? {};
  return parametersOf(operationFor('GET', `/${resource.name}`))
    .filter((parameter) => parameter.in === 'query' && !paging.has(parameter.name) && parameter.name !== resource.owner?.listParameter)
    .map(({ name }) => {
      const property = resource.filterProperties?.[name] ?? name;
      if (!(property in properties)) {
        throw new Error(`openapi.yaml: GET /${resource.name} filters by ${name}, which is no property of ${resource.entity.name}; name its property in the descriptor's filterProperties`);
      }
      return [name, property] as const;
    });
}
