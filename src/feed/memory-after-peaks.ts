// Gives memory back after a peak of open streams, or of records of batch imports under way. V8 keeps the heap a peak
// grew, and the garbage the closed streams (or the finished import) left in it, for as long as the instance stays
// quiet: nothing allocates enough to start a collection, so 5,000 closed streams kept RSS at 420 MB
// (docs/benchmarks.md). One memory-reducing collection, once the count has fallen to half its peak and stayed there a
// moment, hands the freed heap back to the system. The same goes for a burst of streams opening: each request that
// opened one left its garbage (express's, the validator's, the token check's) in a heap the burst grew, 14 KiB a
// stream of 5,000 besides the 15 KiB the stream holds; one collection once the opening has stopped a moment gives it
// back.

/** V8's collection function, present when the process runs with `--expose-gc` (`npm start` and the image pass it). */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface MemoryAfterPeaksOptions {
  /** How long the count must stay at or below half its peak: a collection pauses the loop (~0.1–0.3 s), once. */
  quietMs?: number;
  /** A peak (or a rise) smaller than this holds too little to be worth a pause. */
  minimumPeak?: number;
  /**
   * Also after a rise: once the count has reached twice what it was at the last collection and has not changed for
   * `quietMs`. For streams, whose opening leaves garbage and then nothing; not for imports, whose count stays up for
   * as long as they run, their records live.
   */
  afterRises?: boolean;
}

export interface MemoryAfterPeaks {
  /** Told the count (open streams, records of imports under way) whenever it changes. */
  inUse(count: number): void;
  /** Whether a collection waits for its quiet moment. */
  readonly scheduled: boolean;
  stop(): void;
}

export function memoryAfterPeaks(collect: Collect | undefined = (globalThis as { gc?: Collect }).gc,
  { quietMs = 5000, minimumPeak = 500, afterRises = false }: MemoryAfterPeaksOptions = {}): MemoryAfterPeaks {
  let peak = 0;
  let count = 0;
  /** The count at the last collection. */
  let collectedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    inUse(now) {
      count = now;
      peak = Math.max(peak, now);
      const fallen = peak >= minimumPeak && now <= peak / 2;
      const risen = afterRises && now - collectedAt >= minimumPeak && now >= 2 * collectedAt;
      // Streams coming back above half the peak (or below twice the count collected at): the peak is not over, and a
      // pause now would hit them.
      if (!fallen && !risen) return cancel();
      if (!collect) return;
      // A fall waits from when it began; a rise from its last change, so that the opening has stopped.
      if (timer) {
        if (!fallen) timer.refresh();
        return;
      }
      timer = setTimeout(() => {
        timer = undefined;
        collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
        // The next collection waits for the next fall to half of what is open now, or rise to twice it.
        peak = collectedAt = count;
      }, quietMs);
      timer.unref();
    },
    get scheduled() {
      return timer !== undefined;
    },
    stop: cancel,
  };
}
