// Which of the contract's paths and operations a method and a path below the base path name.
import { openApiDocument, type Operation, type Parameter } from './document.ts';
import { resolve } from './references.ts';

// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`); `{id}` is greedy (contract A: it may
// hold `/`), and a trailing slash names the same path, as express routes it.
const templates = Object.keys(openApiDocument.paths)
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '.+')}/?$`) }));

export function pathTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

/** The operation `method` names at `path`, or undefined when the contract documents none. */
export function operationFor(method: string, path: string): Operation | undefined {
  const template = pathTemplate(path);
  return template === undefined ? undefined : openApiDocument.paths[template]![method.toLowerCase()];
}

/** The operation's own parameters, `$ref`s resolved. */
export function parametersOf(operation: Operation | undefined): Parameter[] {
  return (operation?.parameters ?? []).map((parameter) => resolve(parameter));
}
