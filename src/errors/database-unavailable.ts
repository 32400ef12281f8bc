// Recognises "the database cannot be reached" among driver errors, so it is a 503 and not a 500.
import { ConnectionException } from '@mikro-orm/core';

// Socket errors, and PostgreSQL's SQLSTATE class 08 (connection exception) and 57P0x (operator intervention).
// 57014 is a statement cancelled by statement_timeout (DB_STATEMENT_TIMEOUT_MS): the database is too slow to use now.
// 25006 (read_only_sql_transaction) is a write that reached a standby: during a failover a balancer that checks
// Patroni's /primary sends connections to the node being promoted a moment before it takes writes
// (bench/failover.sh saw 170 such creates in 5 s); it is writable again within seconds.
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02',
  '57P03', '57014', '25006']);

// The driver's and the pool's messages for a connection that failed or broke.
const connectionFailure = new RegExp('Connection terminated|connection timeout|timeout exceeded when trying to ' +
  'connect|Client has encountered a connection error|Query read timeout', 'i');

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof ConnectionException) return true;
    const code = String((cause as { code?: unknown }).code ?? '');
    // 08P01 (protocol violation) is a request the driver could not encode, not an unreachable database.
    if (unavailableCodes.has(code) || (code.startsWith('08') && code !== '08P01')) return true;
    const text = String((cause as { message?: unknown }).message ?? '');
    if (connectionFailure.test(text)) return true;
  }
  return false;
}

/** The pool or the embedded database has been closed: the instance is stopping (nothing else closes them). */
export function isDatabaseClosed(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if (/Cannot use a pool after calling end|PGlite is clos(?:ed|ing)/.test(String((cause as {
      message?: unknown }).message ?? ''))) return true;
  }
  return false;
}

/**
 * No pooled connection came free within DB_ACQUIRE_TIMEOUT_MS: the pool is busy, the database may be fine. pg-pool
 * says so only in its message (no code, no error class).
 */
export function isAcquireTimeout(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if (/timeout exceeded when trying to connect/i.test(String((cause as { message?: unknown }).message
      ?? ''))) return true;
  }
  return false;
}

// Failures that leave no doubt the statement never ran to its end: no connection was had (the pool's wait, a refused or
// unresolvable server, one not accepting connections now), or the server refused or cancelled it (a standby, the
// statement bound). Any other broken connection may have cut the answer of a statement the server carried out.
const neverRan = new Set(['ECONNREFUSED', 'ENOTFOUND', '57P03', '25006', '57014']);
const noConnection = /timeout exceeded when trying to connect|connection timeout/i;

/** Whether a write that failed so may still have been stored: its outcome is unknown to this instance. */
export function mayHaveBeenStored(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    if (neverRan.has(String((cause as { code?: unknown }).code ?? ''))) return false;
    if (noConnection.test(String((cause as { message?: unknown }).message ?? ''))) return false;
  }
  return true;
}
