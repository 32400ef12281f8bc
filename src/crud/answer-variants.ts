// Which declared operation answers a request: a list asked for the other view (`view=detail`) and a create asked for
// the record (`Prefer: return=representation`) are answered as the operations the contract names for them
// (`x-view-operations`, `x-representation-operation`), whose answers a generated client types.
import type { Request } from 'express';
import type { Operation } from '../contract/document.ts';
import { prefersRepresentation } from './representation-preference.ts';

/** The operation a request to `operation` is answered as: itself, or the one its contract names for what was asked. */
export type VariantOf<T> = (req: Request) => T | undefined;

export function answerVariants<T>(operations: readonly T[], contractOf: (operation: T) => Operation): (operation: T) =>
  VariantOf<T> {
  const byId = new Map(operations.map((operation) => [contractOf(operation).operationId, operation]));
  const named = (id: string | undefined, where: string): T | undefined => {
    if (id === undefined) return undefined;
    const found = byId.get(id);
    if (!found) throw new Error(`openapi.yaml: ${where} names ${id}, which no collection serves`);
    return found;
  };
  return (operation) => {
    const contract = contractOf(operation);
    const { operationId = '' } = contract;
    const views = new Map(Object.entries(contract['x-view-operations'] ?? {})
      .map(([view, id]) => [view, named(id, `${operationId}'s x-view-operations`)!]));
    const representation = named(contract['x-representation-operation'], `${operationId}'s x-representation-operation`);
    return (req) => {
      // express 5 parses the query string on every read of `req.query`: read only when a `view` key can be there, as
      // itself or percent-encoded.
      const view = views.size > 0 && (req.url.includes('view') || req.url.includes('%')) ? req.query.view : undefined;
      if (typeof view === 'string' && views.has(view)) return views.get(view);
      if (representation && prefersRepresentation(req)) return representation;
      return undefined;
    };
  };
}
