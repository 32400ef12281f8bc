// A mocha reporter for finding where a suite's time goes (docs/testing.md#the-slowest-tests): the spec reporter's
// output, and a JSON file with each test's and each slow hook's duration (mocha's JSON reporter leaves hooks out, where
// services start and SDKs build) and each file's wall time, the test process's CPU and its ended children's CPU.
// Usage: npx mocha --reporter ./tools/test-timing-reporter.ts --reporter-option out=/tmp/timings.json \
//   'test/**/*.test.ts'
// CPU is a better measure than wall time on a shared machine: wall time grows with the load, CPU much less.
import { readFileSync, writeFileSync } from 'node:fs';
import Mocha from 'mocha';

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_END, EVENT_HOOK_END, EVENT_RUN_END, EVENT_TEST_PASS,
  EVENT_TEST_PENDING } = Mocha.Runner.constants;

/** Hooks shorter than this are left out of the file: there are thousands of them, nearly all instant. */
const slowHookMs = 500;

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU of the children this process has waited for (Linux: /proc/self/stat's cutime and cstime, in clock ticks). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

interface FileTiming { file: string; title: string; wallMs: number; cpuMs: number; childrenCpuMs: number;
  passed: number; pending: number }
interface Timing { file?: string; title: string; ms: number; hook?: true; state?: string }

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const out = (options.reporterOptions as Record<string, string> | undefined)?.out;
    if (!out) throw new Error('test-timing-reporter: give --reporter-option out=<file>');
    const files: FileTiming[] = [];
    const timings: Timing[] = [];
    const started = { at: Date.now(), cpuMs: ownCpuMs(), childrenCpuMs: childrenCpuMs() };
    let current: (FileTiming & { startedAt: number }) | undefined;
    // A file's time: from its top-level describe's start to its end, hooks included.
    const isFileSuite = (suite: Mocha.Suite) => suite.parent?.root === true && suite.file !== undefined;
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (!isFileSuite(suite)) return;
      current = { file: suite.file!, title: suite.title, startedAt: Date.now(), wallMs: 0, cpuMs: ownCpuMs(),
        childrenCpuMs: childrenCpuMs(), passed: 0, pending: 0 };
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!isFileSuite(suite) || !current) return;
      const { startedAt, ...timing } = current;
      files.push({ ...timing, wallMs: Date.now() - startedAt, cpuMs: Math.round(ownCpuMs() - timing.cpuMs),
        childrenCpuMs: childrenCpuMs() - timing.childrenCpuMs });
      current = undefined;
    });
    runner.on(EVENT_TEST_PASS, () => { if (current) current.passed += 1; });
    runner.on(EVENT_TEST_PENDING, () => { if (current) current.pending += 1; });
    runner.on(EVENT_TEST_END, (test) => {
      timings.push({ file: test.file, title: test.fullTitle(), ms: test.duration ?? 0, state: test.state });
    });
    runner.on(EVENT_HOOK_END, (hook) => {
      if ((hook.duration ?? 0) >= slowHookMs) {
        timings.push({ file: hook.file, title: hook.fullTitle(), ms: hook.duration!, hook: true });
      }
    });
    runner.once(EVENT_RUN_END, () => {
      writeFileSync(out, JSON.stringify({
        wallMs: Date.now() - started.at, cpuMs: Math.round(ownCpuMs() - started.cpuMs),
        childrenCpuMs: childrenCpuMs() - started.childrenCpuMs, files,
        slowest: timings.sort((a, b) => b.ms - a.ms),
      }, null, 1));
    });
  }
}

// Mocha loads a reporter with require(): this is what require() of this module returns.
export { TimingReporter as 'module.exports' };
