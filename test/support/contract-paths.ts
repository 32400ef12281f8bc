// Which of openapi.yaml's paths and operations an observed request named: the tests' own reading of the contract.
import { openApiDocument, type Operation } from '../../src/contract/document.ts';

// Fixed paths before templated ones (`/sighting/qbe` before `/sighting/{id}`), a parameter as one segment before
// `{id}` as the greedy text it may be (it may hold `/`); a trailing slash names the same path.
const ordered = Object.keys(openApiDocument.paths).sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')));
const matcher = (parameter: string) => ordered.map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, parameter)}/?$`) }));
const templates = [...matcher('[^/]+'), ...matcher('.+')];

export function pathTemplate(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

export function operationFor(method: string, path: string): Operation | undefined {
  const template = pathTemplate(path);
  return template === undefined ? undefined : openApiDocument.paths[template]![method.toLowerCase()];
}
