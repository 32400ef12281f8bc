// V8's heap, tuned for a service whose requests allocate short-lived objects; called before anything else loads.
import { setFlagsFromString } from 'node:v8';

/**
 * No allocation-site pretenuring. V8 allocates objects straight into the old generation from the code sites where
 * most of them survived a young-generation collection; at start (modules loaded, the contract parsed, no migration to
 * run) sites that requests use too got so marked, and stayed. Each request's objects from them then held the rest of
 * the request in the young generation until a full collection: 31 % of what a health check allocated survived each
 * young collection instead of 1 %, and those collections cost it 13.7 µs of CPU instead of 1.2 (docs/benchmarks.md).
 */
export function tuneHeap(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
