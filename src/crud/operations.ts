// The generic operations every collection has, bound at start to each resource descriptor and to openapi.yaml: a
// request is resolved to one of them once (src/crud/operation-dispatch.ts), and everything downstream reads that
// (operationOf).
import type { Request, RequestHandler } from 'express';
import { openApiDocument, type Operation } from '../contract/document.ts';
import { pathTextOf, type IntegerParameter, type ResolvedOperation } from '../contract/resolution.ts';
import { parametersOf } from '../contract/parameters.ts';
import { referencedNode } from '../contract/references.ts';
import type { AccessRules, Role } from '../auth/access-rules.ts';
import type { AnyResource, Method, OperationShape } from './resource-descriptor.ts';
import { entityNotFound } from '../errors/refusals.ts';

export type OperationKind =
  | 'list' | 'create' | 'batch' | 'queryByExample' | 'events' | 'read' | 'update' | 'patch' | 'remove' | 'versions'
  | 'version';
/** A record's creator changes it with `writer`, and `admin` changes anyone's (docs/behaviour.md#roles). */
const changeRoles = (access: AccessRules): Role[] =>
  (access.change === 'creator' ? ['writer', 'admin'] : [access.change]);
const creatorOnly = (access: AccessRules): Role[] => (access.change === 'creator' ? ['writer'] : []);

/**
 * The generic set, as paths below `/{resource}` and the roles any one of which lets a caller ask. A list, a query by
 * example and a create are declared once per answer's shape (`/detail-view`, `/qbe/list-view`), so that a generated
 * client types each answer; the same handler answers them.
 */
const genericOperations: ReadonlyArray<OperationShape & { kind: OperationKind; handle?: undefined }> = [
  { kind: 'list', method: 'get', below: '', view: 'list', roles: (access) => [access.read] },
  { kind: 'list', method: 'get', below: '/detail-view', view: 'detail', roles: (access) => [access.read] },
  { kind: 'create', method: 'post', below: '', roles: (access) => [access.create] },
  { kind: 'create', method: 'post', below: '/detail-view', representation: true, roles: (access) => [access.create] },
  { kind: 'batch', method: 'post', below: '/batch', roles: (access) => [access.create] },
  { kind: 'queryByExample', method: 'post', below: '/qbe', view: 'detail', roles: (access) => [access.read] },
  { kind: 'queryByExample', method: 'post', below: '/qbe/list-view', view: 'list', optional: true,
    roles: (access) => [access.read] },
  { kind: 'events', method: 'get', below: '/events', roles: (access) => [access.read] },
  { kind: 'read', method: 'get', below: '/{id}', roles: (access) => [access.read] },
  { kind: 'update', method: 'put', below: '/{id}', roles: changeRoles, ownRecordsOnly: creatorOnly },
  { kind: 'patch', method: 'patch', below: '/{id}', roles: changeRoles, ownRecordsOnly: creatorOnly },
  { kind: 'remove', method: 'delete', below: '/{id}', roles: changeRoles, ownRecordsOnly: creatorOnly },
  { kind: 'versions', method: 'get', below: '/{id}/versions', roles: (access) => [access.read] },
  // Deprecated since 1.2.0: kept by the collections that had it, asked of no new one.
  {
    kind: 'version', method: 'get', below: '/{id}/versions/{version}', optional: true,
    roles: (access) => [access.read],
  },
];

export interface BoundOperation extends ResolvedOperation {
  /** One of the generic set, or the name of one of the resource's own operations (its handler in `own`). */
  kind: OperationKind | string;
  own?: RequestHandler;
  resource: AnyResource;
  method: Method;
  roles: readonly Role[];
}

function integerQueryOf(contract: Operation): IntegerParameter[] {
  return parametersOf(contract).filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ name: parameter.name, schema: parameter.schema && referencedNode(parameter.schema) }))
    .filter((parameter): parameter is IntegerParameter => parameter.schema?.type === 'integer');
}

/** Every operation of every resource; a descriptor whose operation openapi.yaml does not declare fails the start. */
export function boundOperations(resources: readonly AnyResource[]): BoundOperation[] {
  const shapes = (resource: AnyResource) => [...genericOperations, ...resource.ownOperations ?? []];
  return resources.flatMap((resource) => shapes(resource).flatMap(({ kind, method, below, view, representation,
    optional, roles, ownRecordsOnly, handle }) => {
    const template = `/${resource.name}${below}`;
    const contract = openApiDocument.paths[template]?.[method];
    if (!contract && optional) return [];
    if (!contract) throw new Error(
      `openapi.yaml declares no ${method.toUpperCase()} ${template} for the ${resource.name} descriptor`);
    return [{
      kind, own: handle, resource, method, template, contract, view, representation,
      roles: roles(resource.access),
      ownRecordsOnly: ownRecordsOnly?.(resource.access) ?? [],
      integerQuery: integerQueryOf(contract),
      streams: 'text/event-stream' in ((contract.responses?.['200'] as { content?: object } | undefined)?.content
        ?? {}),
    }];
  }));
}

/**
 * A whole-number path parameter (an id, a version) as the client sent it, not as the validator coerced it (`0x10` is
 * not 16): only the canonical decimal spelling within ±(2^53−1) names a record (docs/behaviour.md#ids); else 404.
 */
export function pathNumber(req: Request, name: string): number {
  const text = pathTextOf(req, name) ?? '';
  const value = /^-?(0|[1-9]\d*)$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw entityNotFound();
  return value;
}
