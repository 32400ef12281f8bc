// The generic operations every collection has, bound at start to each resource descriptor and to openapi.yaml: a
// request is matched to one of them once (by express's router), and everything downstream reads that match.
import type { Request } from 'express';
import { openApiDocument, type Operation, type Schema } from '../contract/document.ts';
import { parametersOf } from '../contract/parameters.ts';
import { resolve } from '../contract/references.ts';
import type { AccessRules, Role } from '../auth/access-rules.ts';
import type { AnyResource } from './resource-descriptor.ts';

export type OperationKind = 'list' | 'create' | 'queryByExample' | 'read' | 'update' | 'remove';
type Method = 'get' | 'post' | 'put' | 'delete';

/** A record's creator changes it with `writer`, and `admin` changes anyone's (contract B, Authorization). */
const changeRoles = (access: AccessRules): Role[] => (access.change === 'creator' ? ['writer', 'admin'] : [access.change]);

/** The generic set, as paths below `/{resource}` and the roles any one of which lets a caller ask. */
const genericOperations: ReadonlyArray<{ kind: OperationKind; method: Method; below: string; roles(access: AccessRules): Role[] }> = [
  { kind: 'list', method: 'get', below: '', roles: (access) => [access.read] },
  { kind: 'create', method: 'post', below: '', roles: (access) => [access.create] },
  { kind: 'queryByExample', method: 'post', below: '/qbe', roles: (access) => [access.read] },
  { kind: 'read', method: 'get', below: '/{id}', roles: (access) => [access.read] },
  { kind: 'update', method: 'put', below: '/{id}', roles: changeRoles },
  { kind: 'remove', method: 'delete', below: '/{id}', roles: changeRoles },
];

export interface IntegerParameter {
  name: string;
  schema: Schema;
}

export interface BoundOperation {
  kind: OperationKind;
  resource: AnyResource;
  method: Method;
  /** openapi.yaml's path below the base path: `/sighting/{id}`; what logs, metrics and traces name. */
  template: string;
  /** The same path as an express route: `/sighting/:id`. */
  route: string;
  contract: Operation;
  /** Any one of these realm roles lets the caller ask; who owns a record is checked later, on the record. */
  roles: readonly Role[];
  integerQuery: readonly IntegerParameter[];
}

function integerQueryOf(contract: Operation): IntegerParameter[] {
  return parametersOf(contract).filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ name: parameter.name, schema: parameter.schema && resolve(parameter.schema) }))
    .filter((parameter): parameter is IntegerParameter => parameter.schema?.type === 'integer');
}

/** Every operation of every resource; a descriptor whose operation openapi.yaml does not declare fails the start. */
export function boundOperations(resources: readonly AnyResource[]): BoundOperation[] {
  return resources.flatMap((resource) => genericOperations.map(({ kind, method, below, roles }) => {
    const template = `/${resource.name}${below}`;
    const contract = openApiDocument.paths[template]?.[method];
    if (!contract) throw new Error(`openapi.yaml declares no ${method.toUpperCase()} ${template} for the ${resource.name} descriptor`);
    return {
      kind, resource, method, template, contract,
      route: template.replace(/\{(\w+)\}/g, ':$1'),
      roles: roles(resource.access),
      integerQuery: integerQueryOf(contract),
    };
  }));
}

interface Match {
  operation: BoundOperation;
  /** The path's parameters as sent: the request validator later replaces `req.params` with coerced values. */
  pathText: Readonly<Record<string, string>>;
}

const matches = new WeakMap<Request, Match>();

/** Marks the request as asking for `operation`: the first step of each operation's route. */
export function matchedTo(req: Request, operation: BoundOperation): void {
  matches.set(req, { operation, pathText: { ...req.params } as Record<string, string> });
}

/** The operation the request was matched to, or undefined when it matched none (yet). */
export function operationOf(req: Request): BoundOperation | undefined {
  return matches.get(req)?.operation;
}

/** A path parameter's text as the client sent it (decoded): `0x10` stays `0x10`, never the number 16. */
export function pathText(req: Request, name: string): string | undefined {
  return matches.get(req)?.pathText[name];
}
