// Holds the event loop, as a long synchronous task or a machine with every core busy does.

/** Returns after `ms` of running without yielding: timers due meanwhile, and I/O that arrived, wait for the loop. */
export function holdLoop(ms: number): void {
  for (const until = performance.now() + ms; performance.now() < until;);
}
