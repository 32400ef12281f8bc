// Bounds every wait on PostgreSQL (a free connection, a new connection, a statement), so a lost database is a 503 in
// seconds.
import { Socket } from 'node:net';
import pg from 'pg';
import type { Config } from '../config/config.ts';
import { boundedCursor, isCursor, type Cursor } from './bounded-cursor.ts';
import { sendCancelRequest } from './cancel-request.ts';
import { boundedCopy, isCopyOut } from './bounded-copy.ts';
import { boundTimer } from './bound-timer.ts';

type Settings = Pick<Config, 'DB_ACQUIRE_TIMEOUT_MS' | 'DB_CONNECT_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS'
  | 'DATABASE_DIRECT_URL' | 'DB_PREPARED_STATEMENTS'> & {
  /**
   * The sessions a migration runs on (src/db/orm.ts), always straight to the server: a statement there takes as long
   * as its work does (an index built over a large table), and its wait for a lock no longer than a request's statement
   * may take (a schema change queued for its lock holds every request behind it: writes would pause).
   */
  migrating?: boolean;
};

/**
 * Longest wait for a cancel request to be taken (a server or pooler that does not take it in that time is lost anyway).
 */
const cancelBoundMs = 1000;

/** The session's cancel key, which pg's Client keeps from the server's BackendKeyData (its own `cancel` sends it). */
type Keyed = { processID: number | null; secretKey: number | null; host: string; port: number };

/** A connection of the service's pools: a transaction whose work grows with its size may lengthen its bound. */
export interface LengthenedBound {
  /**
   * Gives this connection's statements `factor` times the statement bound, the server's (`SET LOCAL`, so in the open
   * transaction only) and the client's own; answers what gives the client's back, to be called before the release.
   */
  lengthenBound(factor: number): Promise<() => void>;
}

export const lengthensBound = (client: object): client is LengthenedBound =>
  typeof (client as Partial<LengthenedBound>).lengthenBound === 'function';

const isoDates = 'set datestyle to \'ISO, YMD\'';

const isSubmittable = (query: unknown) => typeof (query as Partial<pg.Submittable> | undefined)?.submit === 'function';

const isNamed = (query: unknown): query is pg.QueryConfig =>
  typeof (query as pg.QueryConfig | undefined)?.name === 'string';

/**
 * A statement's result, through pg's callback rather than the promise pg makes when given none. With pg's promise every
 * statement's result (its rows) outlived its request into V8's old generation: under a load of pages of 50, 16 % of
 * all the service allocated survived each young-generation collection (the design floor's 0.2 %), and each of those
 * collections took 20 ms instead of 1 (`--trace-gc-nvp`, docs/benchmarks.md); answered through the callback, 0.5 %.
 * The text or configuration is copied: pg writes the callback into the configuration it is given.
 */
function answerOf(query: (...parts: unknown[]) => unknown, [statement, values]: unknown[]): Promise<pg.QueryResult> {
  const config = typeof statement === 'string' ? statement : { ...statement as pg.QueryConfig };
  return new Promise((resolve, reject) => {
    query(config, values, (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * MikroORM's driver options for one pg-pool, through the pool's and the client's public options:
 * `connectionTimeoutMillis` bounds the wait for a free connection; the pool's `Client` (pg-pool's documented `Client`
 * option) is a `pg.Client` that bounds its own connect, and each statement: where no answer comes in time (a slow
 * statement, a network that is cut rather than refusing), by itself. It owns the socket it talks over (pg's `stream`
 * option), so a connection whose answer never came is torn down at once and never handed out again with the late
 * answer still in flight. The server's own bound (`statement_timeout`, SQLSTATE 57014, which also cancels the
 * statement on the server): behind a pooler (DATABASE_DIRECT_URL set) the role's or database's default, set by the
 * operator (README), since nothing may be set on a session there, neither a startup parameter (PgBouncer refuses
 * `statement_timeout` as one) nor a `SET`, which through a transaction-mode pooler would land on sessions other
 * clients get next; straight to the server, the startup parameter each of its sessions begins with. A cursor (the
 * lists' stream) runs from its first fetch to its close in a transaction of its own that lifts the server's bound with
 * `SET LOCAL` (gone at its commit); each fetch is bounded by the client instead (src/db/bounded-cursor.ts). Lists are
 * never read inside another transaction, so that transaction is the cursor's alone. When the client's bound passes, the
 * statement is cancelled on the server first (a cancel request: PgBouncer forwards it to the server session its client
 * is linked to), so it stops waiting and releases its locks even where the server has no bound of its own; then the
 * connection is torn down. `onPool` sees each pool as it is made (metrics count its connections).
 */
export function boundedWaits(settings: Settings, onPool: (pool: object) => void = () => {},
  onConnectFailed: () => void = () => {}): Record<string, unknown> {
  // Slightly later than the server's bound (when the operator set it to the same), so a reachable server answers 57014
  // first.
  const boundOf = (serverBound: number) => serverBound + 1000;
  const clientBound = settings.migrating ? Infinity : boundOf(settings.DB_STATEMENT_TIMEOUT_MS);
  // A transaction-mode pooler hands each statement to any server session, where a statement prepared on another is
  // unknown: behind one (unless the operator says it keeps them per client) a named statement goes unnamed.
  const keepsNames = settings.DB_PREPARED_STATEMENTS ?? settings.DATABASE_DIRECT_URL === undefined;
  const timedOut = (): never => { throw new Error('Query read timeout'); };
  class BoundedClient extends pg.Client {
    readonly #socket: Socket;
    /**
     * When each statement sent and not answered yet was sent (`performance.now()`), oldest first: `pg` answers a
     * connection's statements in the order they were sent.
     */
    readonly #sent: number[] = [];
    /** One timer per connection, not one per statement: armed while statements are out, left to lapse when none are. */
    #watch: NodeJS.Timeout | undefined;
    /** Once the oldest statement went unanswered too long: the connection given up, torn down when this settles. */
    #givenUp: Promise<void> | undefined;
    /** How long a statement may go unanswered (a lengthened bound's while it lasts). */
    #bound = clientBound;

    constructor(options: pg.ClientConfig) {
      const socket = new Socket();
      // pg-pool keeps `password` as a non-enumerable property (out of stack traces), which a spread drops: a password
      // in the URL would never reach the server. Copied by name, as pg-pool's own `new Client(this.options)` keeps it.
      const password = 'password' in options ? { password: options.password } : {};
      super({ ...options, ...password, connectionTimeoutMillis: settings.DB_CONNECT_TIMEOUT_MS, stream: () => socket });
      this.#socket = socket;
    }

    /** pg-pool connects each new client with a callback; a failure is counted (metrics), then reported as before. */
    override connect(...args: unknown[]): never {
      const [callback] = args as [((error?: Error) => void) | undefined];
      const connect = (super.connect as (...parts: unknown[]) => unknown).bind(this);
      if (!callback) return (connect() as Promise<void>).catch((error: unknown) =>
        { onConnectFailed(); throw error; }) as never;
      return connect((error?: Error) => {
        if (error) onConnectFailed();
        callback(error);
      }) as never;
    }

    async lengthenBound(factor: number): Promise<() => void> {
      const serverBound = Math.ceil(settings.DB_STATEMENT_TIMEOUT_MS * factor);
      await this.query(`set local statement_timeout = ${serverBound}`);
      this.#bound = boundOf(serverBound);
      return () => { this.#bound = clientBound; };
    }

    /**
     * Cancels the running statement on the server (before the socket goes: PgBouncer forwards a cancel only for a
     * client still there), then tears the connection down.
     */
    async #giveUp(): Promise<void> {
      const { processID, secretKey, host, port } = this as unknown as Keyed;
      if (processID !== null && secretKey !== null) await sendCancelRequest({ host, port, processId: processID,
        secretKey }, cancelBoundMs);
      // Ended, not only its socket destroyed: the pool discards a client released while it ends. The socket's close,
      // its other signal, comes a loop turn later, and a release before it (a list's cursor closed at once) handed the
      // dead connection to the next request waiting for one: "Connection terminated unexpectedly".
      this.end().catch(() => {});
      this.#socket.destroy();
    }

    override query(...args: unknown[]): never {
      const superQuery = super.query as (...parts: unknown[]) => unknown;
      // A cursor (a list's stream) and a COPY out (an export) each run as one statement from their first row to their
      // last, in a transaction of their own that lifts the server's bound: each wait for rows is bounded here instead.
      // The statement is submitted once its transaction has begun.
      const submittable = args[0];
      // A COPY out is a readable stream with `submit`, which `isCursor` would take for a cursor: asked first.
      const copyOut = isCopyOut(submittable);
      if (copyOut || isCursor(submittable)) {
        const query = superQuery.bind(this);
        const tearDown = () => this.#giveUp();
        // An export's select is planned for its million rows and would be JIT-compiled before its first row, for
        // expressions that are mostly function calls: its first bytes came later and its rows no sooner.
        const begin = copyOut ? 'begin read only; set local jit = off' : 'begin';
        const opened = (query(`${begin}; set local statement_timeout = 0`) as Promise<unknown>)
          .then(() => { query(submittable); });
        // Its failure is the first read's to report.
        opened.catch(() => {});
        // A transaction that failed is rolled back by its commit; the connection goes back to the pool outside one.
        const end = () => (query('commit') as Promise<unknown>).then(() => {}, () => {});
        return (copyOut ? boundedCopy(submittable, opened, clientBound, tearDown, end)
          : boundedCursor(submittable as Cursor, opened, clientBound, tearDown, end)) as never;
      }
      if (!keepsNames && isNamed(args[0])) args[0] = { ...args[0], name: undefined };
      // Given a callback (pg-pool's own `query`) or a submittable of its own, pg answers through them, unbounded here.
      if (args.some((arg) => typeof arg === 'function') || isSubmittable(args[0])) {
        return superQuery.apply(this, args) as never;
      }
      this.#sent.push(performance.now());
      if (!this.#watch && this.#bound !== Infinity) this.#watch = boundTimer(this.#bound, this.#look).unref();
      return answerOf(superQuery.bind(this), args).then(this.#answered, this.#failed) as never;
    }

    /**
     * Gives the connection up when its oldest statement has had no answer in time, else looks again when it would be
     * late. Not holding the process open: a statement out holds its socket, which does.
     */
    readonly #look = () => {
      this.#watch = undefined;
      const oldest = this.#sent[0];
      if (oldest === undefined || this.#givenUp) return;
      const left = oldest + this.#bound - performance.now();
      if (left > 0) this.#watch = boundTimer(left, this.#look).unref();
      else this.#givenUp = this.#giveUp();
    };

    /**
     * A statement's answer, passed on unless the connection was given up: from then on the answer is nobody's to
     * report (the cancel makes it fail at once, and passing that on would release the connection to the pool before it
     * is torn down, for the next request to find it closed); it fails as `pg`'s own `query_timeout` does, once the
     * connection is torn down (which fails every statement still out).
     */
    readonly #answered = (value: unknown) => {
      this.#sent.shift();
      return this.#givenUp ? this.#givenUp.then(timedOut) : value;
    };

    readonly #failed = (error: unknown) => {
      this.#sent.shift();
      if (this.#givenUp) return this.#givenUp.then(timedOut);
      // As pg's own promise does: the stack leads back to the statement's caller, not to the socket's read.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    };
  }
  return {
    Client: BoundedClient,
    connectionTimeoutMillis: settings.DB_ACQUIRE_TIMEOUT_MS,
    // Without a direct URL beside it, DATABASE_URL names the server itself (no pooler between), whose sessions are the
    // service's own: each starts bounded, as the role's default would, also where the operator set none.
    ...(settings.DATABASE_DIRECT_URL === undefined && !settings.migrating
      && { statement_timeout: settings.DB_STATEMENT_TIMEOUT_MS }),
    // Each session reads dates as ISO text (src/db/local-date-time-text.ts), whatever DateStyle the server, database
    // or role sets. DateStyle is one of the parameters a transaction-mode pooler keeps per client (PgBouncer tracks
    // it), so this `SET` holds there too. pg-pool's hook for a new client: one that fails it is ended, not handed out.
    // A migration's session sets its bounds the same way, over the role's defaults (pg sends no startup
    // `statement_timeout` of 0).
    onConnect: (client: pg.ClientBase) => client.query(settings.migrating ? `${isoDates}; set statement_timeout = 0; ` +
      `set lock_timeout = ${settings.DB_STATEMENT_TIMEOUT_MS}` : isoDates),
    onPoolCreated: onPool,
  };
}
