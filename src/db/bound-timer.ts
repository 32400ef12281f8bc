// A timer for a bound on an answer that comes over I/O (a statement's, a fetch's).

/**
 * Calls `passed` once `ms` have passed and the I/O that was waiting then has been read. A loop turn runs its timers
 * before it reads its sockets: after the event loop was held (a long synchronous task, a machine whose cores are all
 * busy), a bound's timer would fire while the answer it waits for sits unread in the socket, and tear down a
 * connection that answered in time. `passed` runs in the same turn, after the sockets are read, and looks again.
 */
export function boundTimer(ms: number, passed: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(passed), ms);
}
