// Which of openapi.yaml's paths and operations an observed request named: the tests' own reading of the contract.
import { openApiDocument, type Operation } from '../../src/contract/document.ts';

// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`); `{id}` is greedy (it may hold `/`), and
// a trailing slash names the same path.
const templates = Object.keys(openApiDocument.paths)
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '.+')}/?$`) }));

export function pathTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

export function operationFor(method: string, path: string): Operation | undefined {
  const template = pathTemplate(path);
  return template === undefined ? undefined : openApiDocument.paths[template]![method.toLowerCase()];
}
