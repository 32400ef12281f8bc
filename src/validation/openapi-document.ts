// The contract, loaded once from openapi.yaml, with a resolver for its local `$ref`s.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const openApiPath = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
export const openApiText = readFileSync(openApiPath, 'utf8');
export const openApiDocument = parse(openApiText) as Record<string, unknown>;

export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  oneOf?: Schema[];
  xml?: { name?: string; wrapped?: boolean };
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  'x-message-keys'?: Record<string, string>;
  [keyword: string]: unknown;
};

/** Follows `#/…` references until a schema that is not one. */
export function resolve<T = Schema>(node: T | { $ref: string }): T {
  let current: unknown = node;
  while (current && typeof current === 'object' && '$ref' in current && typeof current.$ref === 'string') {
    current = current.$ref.slice(2).split('/').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], openApiDocument);
  }
  return current as T;
}

/** The schema of a field below `schema`, following properties, additionalProperties and oneOf. */
export function schemaAt(schema: Schema | undefined, path: string[]): Schema | undefined {
  let current = schema && resolve(schema);
  for (const segment of path) {
    if (!current) return undefined;
    const candidates = current.oneOf ? current.oneOf.map((s) => resolve(s)) : [current];
    const owner = candidates.find((c) => c.properties?.[segment]) ?? candidates.find((c) => typeof c.additionalProperties === 'object');
    const next = owner?.properties?.[segment] ?? (typeof owner?.additionalProperties === 'object' ? owner.additionalProperties : undefined);
    current = next && resolve(next);
  }
  return current;
}
