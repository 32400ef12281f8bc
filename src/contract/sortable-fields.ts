// The fields a list can be ordered by, as its `sort` parameter's pattern and its order parameters in openapi.yaml name
// them: what the web page offers to sort by follows the contract, never a list of its own.
import { openApiDocument, type Schema } from './document.ts';
import { parametersOf } from './parameters.ts';

const queryParameters = (path: string) =>
  parametersOf(openApiDocument.paths[path]?.get).filter((parameter) => parameter.in === 'query');

/** `^-?(a|b)(,-?(a|b))*$` names `a` and `b`; a list without `sort` has none. */
export function sortableFields(path: string): string[] {
  const sort = queryParameters(path).find((parameter) => parameter.name === 'sort');
  const pattern = String((sort?.schema as Schema | undefined)?.pattern ?? '');
  return /^\^-\?\(([\w|]+)\)/.exec(pattern)?.[1]?.split('|') ?? [];
}

/**
 * The fields a list orders by before its `sort`, each by a parameter of its own (`vesselNameOrder`: `asc` or `desc`,
 * added later than `sort`, whose pattern cannot widen compatibly): `{ vesselName: 'vesselNameOrder' }`.
 */
export function orderParameters(path: string): Record<string, string> {
  return Object.fromEntries(queryParameters(path).filter(({ name, schema }) => /^\w+Order$/.test(name)
    && JSON.stringify((schema as Schema | undefined)?.enum) === '["asc","desc"]')
    .map(({ name }) => [name.replace(/Order$/, ''), name]));
}
