// The heap a large import grows, given back. Its records live in the old generation, and once their rows are sent they
// are garbage that V8 would only collect once the heap had grown further still (the answer's ids on top of them).
import { memoryAfterPeaks } from '../feed/memory-after-peaks.ts';
import type { ImportMemory } from '../crud/write/batch-handlers.ts';

/** V8's collection function, present when the process runs with `--expose-gc` (`npm start` and the image pass it). */
type Collect = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => void;

/** A batch of this many records and more is large: its collection costs one pause (~0.1–0.3 s), once. */
const largeBatch = 50_000;

/**
 * One memory-reducing collection once a large batch's records are read and checked (V8 runs it in a task of its own),
 * before their rows are made: the reading and checking left several objects a record, which V8 would let the heap
 * grow further by before collecting, and the rows' garbage would come on top
 * (docs/benchmarks.md#a-whole-data-sets-memory). Another as soon as its records are dropped, before the answer's ids
 * are made into its text on top of them; and another once the imports under way have fallen to half their peak and
 * stayed there a moment, for the answer's own garbage.
 */
export function importMemory(collect = (globalThis as { gc?: Collect }).gc): ImportMemory {
  const afterPeaks = memoryAfterPeaks(undefined, { minimumPeak: largeBatch });
  let importing = 0;
  const collectFor = (records: number) => {
    if (records >= largeBatch) collect?.({ type: 'major', execution: 'async', flavor: 'last-resort' });
  };
  return {
    importing: (change) => afterPeaks.inUse(importing += change),
    checked: collectFor,
    dropped: collectFor,
  };
}
