// The fields a list can be ordered by, as its `sort` parameter's pattern in openapi.yaml names them: what the web page
// offers to sort by follows the contract, never a list of its own.
import { openApiDocument, type Schema } from './document.ts';
import { parametersOf } from './parameters.ts';

/** `^-?(a|b)(,-?(a|b))*$` names `a` and `b`; a list without `sort` has none. */
export function sortableFields(path: string): string[] {
  const sort = parametersOf(openApiDocument.paths[path]?.get).find((parameter) => parameter.name === 'sort');
  const pattern = String((sort?.schema as Schema | undefined)?.pattern ?? '');
  return /^\^-\?\(([\w|]+)\)/.exec(pattern)?.[1]?.split('|') ?? [];
}
