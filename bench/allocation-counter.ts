// Loaded into a server with `--import` (bench/allocation-per-request.ts, bench/processes.ts): on SIGUSR2 it reports
// the bytes allocated on the V8 heap since it started, the heap in use now plus what every collection since freed, as
// `ALLOCATED <report> <bytes>` (`report` counts the reports): on standard error, or, when ALLOCATION_REPORT names a
// file, as that file's whole text.
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.ALLOCATION_REPORT;
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
  const report = `ALLOCATED ${++reports} ${freed + v8.getHeapStatistics().used_heap_size}\n`;
  if (file) writeFileSync(file, report);
  else process.stderr.write(report);
});
