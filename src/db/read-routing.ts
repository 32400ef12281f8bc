// Which connection a read uses, decided here and nowhere else: the primary, or a read replica.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager, EventSubscriber } from '@mikro-orm/core';
import { isAcquireTimeout, isDatabaseUnavailable } from '../errors/database-unavailable.ts';

/** MikroORM's names: `write` is the primary, `read` a random replica (its `replicas` option). */
export type ConnectionType = 'read' | 'write';

/**
 * Why a read happens. Only lists and query by example may lag behind the primary by the replication delay;
 * a single record (`GET /{id}`, its ETag and `If-None-Match`) and every read that feeds a write (update,
 * delete, `If-Match`, a sighting's vessel) must see the latest committed version.
 */
export type ReadKind = 'list' | 'query' | 'record' | 'before-write';
const mayLag: ReadonlySet<ReadKind> = new Set(['list', 'query']);

export interface ReadRoutingHooks {
  /** Counts every routed read (metrics). */
  routed?(kind: ReadKind, target: 'primary' | 'replica'): void;
  /** A replica failed; reads go to the primary for a while. */
  replicaFailed?(error: unknown): void;
  /** A read waited for a replica connection in vain; the primary answered it, and the replica stays in use. */
  replicaAcquireTimedOut?(): void;
  /** True while a replica lags more than DB_REPLICA_MAX_LAG_MS: reads go to the primary until it catches up. */
  replicasBehind?(): boolean;
}

/**
 * What a request keeps of its statements while it runs: one store, in the one AsyncLocalStorage of a request, which
 * the acquire wait (src/db/acquire-wait.ts) shares; each store a module adds to a request's context copies it.
 */
export interface RequestStatements {
  readonly readRouting: ReadRouting;
  /** Set once it flushes: its later reads must see its own write. */
  wrote: boolean;
  /** `performance.now()` when its latest statement was about to ask for a pooled connection. */
  askedAt: number | undefined;
  /** The shared EntityManager, for statements (src/db/request-context.ts). */
  readonly em: EntityManager;
}
const current = new AsyncLocalStorage<RequestStatements>();

/** The running request's statements, or undefined outside a request (start-up, the feed, scripts). */
export function requestStatements(): RequestStatements | undefined {
  return current.getStore();
}

export class ReadRouting {
  #replicasDownUntil = 0;
  readonly #replicaCount: number;
  readonly #retryMs: number;
  readonly #hooks: ReadRoutingHooks;

  constructor(replicaCount: number, retryMs: number, hooks: ReadRoutingHooks = {}) {
    this.#replicaCount = replicaCount;
    this.#retryMs = retryMs;
    this.#hooks = hooks;
  }

  /** Runs one request, with the shared EntityManager: its reads are routed here until it writes. */
  run<T>(em: EntityManager, next: () => T): T {
    return current.run({ readRouting: this, wrote: false, askedAt: undefined, em }, next);
  }

  /** Registered with MikroORM: once a request flushes, its later reads must see its own write. */
  readonly subscriber: EventSubscriber =
    { beforeFlush: () => { const request = current.getStore(); if (request) request.wrote = true; } };

  connectionFor(kind: ReadKind, wrote: boolean): ConnectionType {
    return this.#replicaCount > 0 && mayLag.has(kind) && !wrote && Date.now() >= this.#replicasDownUntil
      && !this.#hooks.replicasBehind?.() ? 'read' : 'write';
  }

  async read<T>(kind: ReadKind, wrote: boolean, run: (connectionType: ConnectionType) => Promise<T>): Promise<T> {
    const connectionType = this.connectionFor(kind, wrote);
    this.#hooks.routed?.(kind, connectionType === 'read' ? 'replica' : 'primary');
    if (connectionType === 'write') return run('write');
    try {
      return await run('read');
    } catch (error) {
      // A busy replica pool is no failing replica: this read goes to the primary, the next ones still to the replica.
      if (isAcquireTimeout(error)) {
        this.#hooks.replicaAcquireTimedOut?.();
        this.#hooks.routed?.(kind, 'primary');
        return run('write');
      }
      // A lost replica, or a query the standby cancelled (conflict with recovery, SQLSTATE 40001): the primary
      // answers instead, so a client never sees a 5xx a replica caused.
      if (!isDatabaseUnavailable(error) && (error as { code?: unknown })?.code !== '40001') throw error;
      this.#replicasDownUntil = Date.now() + this.#retryMs;
      this.#hooks.replicaFailed?.(error);
      this.#hooks.routed?.(kind, 'primary');
      return run('write');
    }
  }
}

/**
 * How a read path chooses its connection: `routedRead('list', (connectionType) => em.find(E, where, { connectionType
 * }))` (QueryBuilder: `em.createQueryBuilder(E, alias, connectionType)`; raw: `em.getConnection(connectionType)`).
 * Outside a request (start-up, scripts) every read goes to the primary.
 */
export function routedRead<T>(kind: ReadKind, run: (connectionType: ConnectionType) => Promise<T>): Promise<T> {
  const request = current.getStore();
  return request ? request.readRouting.read(kind, request.wrote, run) : run('write');
}
