// An operation's parameters as openapi.yaml declares them.
import type { Operation, Parameter } from './document.ts';
import { referencedNode } from './references.ts';

/** The operation's own parameters, `$ref`s resolved. */
export function parametersOf(operation: Operation | undefined): Parameter[] {
  return (operation?.parameters ?? []).map((parameter) => referencedNode(parameter));
}
