// The operation of openapi.yaml a request was resolved to, once, and its path parameters as sent: every step reads it
// here.
import type { Request } from 'express';
import type { Operation, Schema } from './document.ts';

export interface IntegerParameter {
  name: string;
  schema: Schema;
}

/** What every step of a request needs to know about its operation, whatever the collection. */
export interface ResolvedOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** openapi.yaml's path below the base path: `/sighting/{id}`; what logs, metrics and traces name. */
  template: string;
  contract: Operation;
  /** Any one of these realm roles lets the caller ask; who owns a record is checked later, on the record. */
  roles: readonly string[];
  /** Those of `roles` that let the caller change only the records it created (`writer` on a sighting). */
  ownRecordsOnly: readonly string[];
  integerQuery: readonly IntegerParameter[];
  /** Its answer is a stream of Server-Sent Events (`text/event-stream`), not a JSON or XML document. */
  streams: boolean;
  /** A list's or a query by example's: the view of its rows (`list` or `detail`). */
  view?: 'list' | 'detail';
  /** A create's: it answers the new record's detail view (`create…ReturningRecord`). */
  representation?: boolean;
}

interface Resolution {
  operation: ResolvedOperation;
  /** The path's parameters as sent (decoded): the request validator later coerces its own copy. */
  pathText: Readonly<Record<string, string>>;
}

/**
 * Kept on the request under a symbol, not in a `WeakMap` keyed by it: each young key set in a `WeakMap` is one more
 * ephemeron for V8's young-generation collections to trace
 * (docs/architecture.md#per-request-state-and-the-young-generation).
 */
const resolution = Symbol('resolution');
type Resolved = Request & { [resolution]?: Resolution };

/** Marks the request as asking for `operation`, with its path parameters as sent. */
export function resolveTo(req: Request, operation: ResolvedOperation,
  pathText: Readonly<Record<string, string>>): void {
  (req as Resolved)[resolution] = { operation, pathText };
}

/** The operation the request was resolved to, or undefined when it names none (yet). */
export function operationOf(req: Request): ResolvedOperation | undefined {
  return (req as Resolved)[resolution]?.operation;
}

/** A path parameter as the client sent it (before any coercion), or undefined. */
export function pathTextOf(req: Request, name: string): string | undefined {
  return (req as Resolved)[resolution]?.pathText[name];
}

/** Every path parameter as the client sent it. */
export function pathTextsOf(req: Request): Readonly<Record<string, string>> {
  return (req as Resolved)[resolution]?.pathText ?? {};
}
