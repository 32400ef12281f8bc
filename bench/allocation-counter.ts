// Loaded into a server with `--import` (bench/allocation-per-request.ts): on SIGUSR2 it prints the bytes allocated on
// the V8 heap since it started, as `ALLOCATED <bytes>`: the heap in use now plus what every collection since freed.
import v8 from 'node:v8';

let freed = 0;
let profiler = new v8.GCProfiler();
profiler.start();
process.on('SIGUSR2', () => {
  for (const collection of profiler.stop()?.statistics ?? []) {
    freed += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize;
  }
  profiler = new v8.GCProfiler();
  profiler.start();
  process.stderr.write(`ALLOCATED ${freed + v8.getHeapStatistics().used_heap_size}\n`);
});
