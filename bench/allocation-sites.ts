// Where the service allocates beyond the design floor, per request: V8's sampling heap profiler (every 256 bytes,
// every object counted whether a collection has freed it since or not) over one load window of each server, the bytes
// each part and function allocated per request, side by side (bench/side-by-side-profiles.ts). Bytes, not times: it
// holds on a loaded machine too. Asserts nothing.
// Run: `BENCH_ONLY='POST /sighting c' DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:allocation-sites`
// Settings: those of bench/side-by-side-profiles.ts.
import { profileSideBySide, type Frame } from './side-by-side-profiles.ts';

interface SamplingNode { callFrame: Frame; selfSize: number; children: SamplingNode[] }

await profileSideBySide({
  measure: 'bytes allocated',
  async start(inspector) {
    await inspector.call('HeapProfiler.enable');
    await inspector.call('HeapProfiler.startSampling', { samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  },
  async stop(inspector) {
    const { profile } = await inspector.call<{ profile: { head: SamplingNode } }>('HeapProfiler.stopSampling');
    const amounts: Array<[Frame, number]> = [];
    const walk = ({ callFrame, selfSize, children }: SamplingNode) => {
      amounts.push([callFrame, selfSize]);
      children.forEach(walk);
    };
    walk(profile.head);
    return amounts;
  },
});
