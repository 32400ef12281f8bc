// What an operation of openapi.yaml marks `deprecated: true`: the operation itself, its parameters, its request body's
// top-level properties; each with `x-deprecated-since` (the release and date) and `x-sunset` (when it goes).
import type { Operation, Schema } from './document.ts';
import { parametersOf } from './parameters.ts';
import { referencedNode } from './references.ts';

export interface Deprecation {
  /** `operation`, `query limit`, `header Prefer`, `property version`: what a request uses, for the metric. */
  element: string;
  /** Unix seconds of the deprecation (RFC 9745 §2.1: `Deprecation: @<seconds>`). */
  since: number;
  /** The release whose changelog entry announced it (docs/changelog.md, `#contract-<release>`). */
  release: string;
  /** The instant it goes (RFC 8594). */
  sunset: Date;
  /** Whether the request uses it. */
  usedBy(request: { query: Record<string, unknown>; headers: Record<string, unknown>; body: unknown }): boolean;
}

type Marked = { deprecated?: boolean; 'x-deprecated-since'?: { version?: string; date?: string }; 'x-sunset'?: string };

function marker(node: Marked, element: string, usedBy: Deprecation['usedBy']): Deprecation[] {
  if (node.deprecated !== true) return [];
  const since = Date.parse(node['x-deprecated-since']?.date ?? '');
  const sunset = new Date(node['x-sunset'] ?? '');
  const release = node['x-deprecated-since']?.version;
  // A deprecation the service cannot announce fully is a contract error: found at start, not by a client.
  if (Number.isNaN(since) || Number.isNaN(sunset.getTime()) || !release) {
    throw new Error(`openapi.yaml: deprecated ${element} needs x-deprecated-since {version, date} and x-sunset`);
  }
  return [{ element, since: since / 1000, release, sunset, usedBy }];
}

const bodyProperties = (operation: Operation): Array<[string, Schema & Marked]> => {
  const schemas = Object.values(operation.requestBody?.content ?? {}).map(({ schema }) => schema
    && referencedNode<Schema>(schema));
  // Every media type of one operation has the same schema (JSON and XML carry the same content).
  return Object.entries(schemas[0]?.properties
    ?? {}).map(([name, schema]) => [name, referencedNode<Schema>(schema) as Schema & Marked]);
};

/** The deprecations of one operation of the contract, in the order the contract lists them. */
export function deprecationsOf(operation: Operation & Marked): Deprecation[] {
  const isObject = (body: unknown): body is Record<string, unknown> => typeof body === 'object' && body !== null
    && !Array.isArray(body);
  return [
    ...marker(operation, 'operation', () => true),
    ...parametersOf(operation).flatMap((parameter) => marker(parameter as typeof parameter & Marked,
      `${parameter.in} ${parameter.name}`,
      (request) => (parameter.in === 'query' ? Object.hasOwn(request.query, parameter.name)
        : parameter.in === 'header' && Object.hasOwn(request.headers, parameter.name.toLowerCase())))),
    ...bodyProperties(operation).flatMap(([name, schema]) => marker(schema, `property ${name}`,
      (request) => isObject(request.body) && Object.hasOwn(request.body, name))),
  ];
}

type Declared = { headers?: Record<string, { schema?: { pattern?: string } }> };

/**
 * Whether the operation's success answers declare a `Link` that can carry the changelog link of a deprecation. A page's
 * `Link` is declared as the next page's only (its pattern a client may check), so a list using a deprecated parameter
 * gets `Deprecation` and `Sunset` without it until a major release widens that header.
 */
export function declaresDeprecationLink(operation: Operation): boolean {
  return Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2')).every(([, answer]) => {
    const link = referencedNode<Declared>(answer as Declared).headers?.Link;
    return link !== undefined && (referencedNode(link).schema?.pattern ?? '').includes('rel="deprecation"');
  });
}
