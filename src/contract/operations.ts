// The contract's operations, and which one a method and a path below the base path name.
import { openApiDocument, type Operation, type Parameter } from './document.ts';
import { pointer, resolve } from './references.ts';

export interface ContractOperation {
  /** The path template, e.g. `/sighting/{id}`. */
  template: string;
  /** Upper case, as requests name it. */
  method: string;
  /** The JSON pointer of the operation object. */
  pointer: string;
  operation: Operation;
}

const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export const operations: ContractOperation[] = Object.entries(openApiDocument.paths).flatMap(([template, item]) => Object.entries(item)
  .filter(([method]) => methods.has(method))
  .map(([method, operation]) => ({ template, method: method.toUpperCase(), pointer: pointer('paths', template, method), operation })));

// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`); `{id}` is greedy (contract A: it may
// hold `/`), and a trailing slash names the same path, as express routes it.
const templates = Object.keys(openApiDocument.paths)
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '.+')}/?$`) }));

/** The template of the contract's path that `path` (below the base path) is, or undefined. */
export function pathTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

/** The operation `method` names at `path` (below the base path), or undefined when the contract documents none. */
export function operationFor(method: string, path: string): ContractOperation | undefined {
  const template = pathTemplate(path);
  return template === undefined ? undefined : operations.find((o) => o.template === template && o.method === method.toUpperCase());
}

/** The operation's own parameters with their `$ref`s resolved. */
export function parametersOf(operation: Operation | undefined): Parameter[] {
  return (operation?.parameters ?? []).map((parameter) => resolve(parameter));
}
