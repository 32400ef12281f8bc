// The fields a list can be ordered by, as its `sort` parameter's schema in openapi.yaml names them: what the web page
// offers to sort by follows the contract, never a list of its own.
import { openApiDocument, type Schema } from './document.ts';
import { parametersOf } from './parameters.ts';

/** `^-?(a|b)(,-?(a|b))*$` names `a` and `b`. */
const patternFields = (schema: Schema): string[] =>
  /^\^-\?\(([\w|]+)\)/.exec(String(schema.pattern ?? ''))?.[1]?.split('|') ?? [];

/** `enum: [c, -c]` names `c`: an order offered alone (a later addition; widening the pattern would break clients). */
const enumFields = (schema: Schema): string[] =>
  (Array.isArray(schema.enum) ? schema.enum : []).map((value) => String(value).replace(/^-/, ''));

/** The sortable fields of the list at `path`: the pattern's, then the enumerated ones; none without `sort`. */
export function sortableFields(path: string): string[] {
  const sort = parametersOf(openApiDocument.paths[path]?.get).find((parameter) => parameter.name === 'sort');
  const schema = sort?.schema as Schema | undefined;
  const branches = Array.isArray(schema?.anyOf) ? schema.anyOf as Schema[] : schema ? [schema] : [];
  return [...new Set(branches.flatMap((branch) => [...patternFields(branch), ...enumFields(branch)]))];
}
