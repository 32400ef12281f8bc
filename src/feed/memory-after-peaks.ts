// Gives memory back after a peak of open streams, or of records of batch imports under way. V8 keeps the heap a peak
// grew, and the garbage the closed streams (or the finished import) left in it, for as long as the instance stays
// quiet: nothing allocates enough to start a collection, so 5,000 closed streams kept RSS at 420 MB
// (docs/benchmarks.md). One memory-reducing collection, once the count has fallen to half its peak and stayed there a
// moment, hands the freed heap back to the system.

/** V8's collection function, present when the process runs with `--expose-gc` (`npm start` and the image pass it). */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface MemoryAfterPeaksOptions {
  /** How long the count must stay at or below half its peak: a collection pauses the loop (~0.1–0.3 s), once. */
  quietMs?: number;
  /** A peak smaller than this holds too little to be worth a pause. */
  minimumPeak?: number;
}

export interface MemoryAfterPeaks {
  /** Told the count (open streams, records of imports under way) whenever it changes. */
  inUse(count: number): void;
  /** Whether a collection waits for its quiet moment. */
  readonly scheduled: boolean;
  stop(): void;
}

export function memoryAfterPeaks(collect: Collect | undefined = (globalThis as { gc?: Collect }).gc,
  { quietMs = 5000, minimumPeak = 500 }: MemoryAfterPeaksOptions = {}): MemoryAfterPeaks {
  let peak = 0;
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    inUse(now) {
      count = now;
      peak = Math.max(peak, now);
      // Streams coming back above half the peak: the peak is not over, and a pause now would hit them.
      if (now > peak / 2) return cancel();
      if (!collect || peak < minimumPeak || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
        // The next collection waits for the next fall to half of what is open now.
        peak = count;
      }, quietMs);
      timer.unref();
    },
    get scheduled() {
      return timer !== undefined;
    },
    stop: cancel,
  };
}
