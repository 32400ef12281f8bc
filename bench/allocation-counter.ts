// Loaded into every server bench/processes.ts starts (`--import`): on SIGUSR2 it writes the bytes allocated on the V8
// heap since it started, the heap in use now plus what every collection since freed, into the file ALLOCATION_REPORT
// names, as its whole text: `ALLOCATED <report> <bytes>` (`report` counts the reports, so a reader knows a new one).
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.ALLOCATION_REPORT!;
let reports = 0;
let freed = 0;
let profiler = new v8.GCProfiler();
profiler.start();
process.on('SIGUSR2', () => {
  for (const collection of profiler.stop()?.statistics ?? []) {
    freed += collection.beforeGC.heapStatistics.usedHeapSize - collection.afterGC.heapStatistics.usedHeapSize;
  }
  profiler = new v8.GCProfiler();
  profiler.start();
  writeFileSync(file, `ALLOCATED ${++reports} ${freed + v8.getHeapStatistics().used_heap_size}\n`);
});
