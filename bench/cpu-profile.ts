// Where the service's CPU goes beyond the design floor's, per request: V8's sampling profiler (every 250 µs) over one
// load window of each server, the self time per request of each part and function, side by side
// (bench/side-by-side-profiles.ts). Asserts nothing.
// Run: `BENCH_ONLY='sighting/-1 c16' DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:profile`
// Settings: those of bench/side-by-side-profiles.ts, and BENCH_PROFILE_DIR (each profile written there too, to open in
// DevTools).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileSideBySide, type Frame } from './side-by-side-profiles.ts';

interface Profile { nodes: Array<{ id: number; callFrame: Frame }>; samples: number[]; timeDeltas: number[] }

await profileSideBySide({
  measure: 'µs of samples',
  async start(inspector) {
    await inspector.call('Profiler.enable');
    await inspector.call('Profiler.setSamplingInterval', { interval: 250 });
    await inspector.call('Profiler.start');
  },
  async stop(inspector, profileName) {
    const { profile } = await inspector.call<{ profile: Profile }>('Profiler.stop');
    if (process.env.BENCH_PROFILE_DIR)
      writeFileSync(join(process.env.BENCH_PROFILE_DIR, `${profileName}.cpuprofile`), JSON.stringify(profile));
    const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    return profile.samples.map((id, i) => [frameOf.get(id)!, profile.timeDeltas[i] ?? 0]);
  },
});
