// The generated SDKs of clients/: clients/build.sh generates and compiles them (cached), each runs its scenario through Prism.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { sharedService } from '../support/service.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const targets = ['typescript-fetch', 'java-native', 'java-okhttp-gson'];
// clients/env.sh's JDK: the generator is a Java program (even for the TypeScript SDK) and Maven fetches it.
const java = `${process.env.CLIENTS_JAVA_HOME ?? '/usr/lib/jvm/java-17-openjdk-amd64'}/bin/java`;

/** Why the SDKs cannot be built here, or undefined when Java 17 and Maven are both present. */
function missingTool(): string | undefined {
  if (!existsSync(java)) return `${java} is missing (Java 17; set CLIENTS_JAVA_HOME to another JDK 17)`;
  try {
    execFileSync('mvn', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mvn (Maven) is not on PATH';
  }
}

/** Runs a clients/ script; resolves with its exit code and everything it printed, interleaved. */
function run(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(`${root}clients/${script}`, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    let output = '';
    child.stdout!.on('data', (chunk: string) => { output += chunk; });
    child.stderr!.on('data', (chunk: string) => { output += chunk; });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('generated SDKs (clients/)', function () {
  before(async function () {
    const missing = missingTool();
    if (missing) {
      console.warn(`    (SDK tests skipped: ${missing})`);
      return this.skip();
    }
    // A fresh clone downloads the generator and the Java SDKs' dependencies from Maven Central; later runs reuse them.
    this.timeout(30 * 60_000);
    const build = await run('build.sh', targets);
    if (build.code !== 0) throw new Error(`clients/build.sh failed (${build.code}):\n${build.output}`);
  });

  for (const target of targets) {
    it(`when the ${target} SDK runs the scenario through the contract proxy, then every step passes`, async function () {
      this.timeout(180_000);
      const service = await sharedService();
      // Prism serves the contract's paths at its root; without the proxy (CONTRACT_PROXY=off) the SDK calls the service.
      const api = service.proxy?.url ?? service.api;
      const { code, output } = await run('run-scenario.sh', [target, api, `${service.realm}/protocol/openid-connect/token`]);
      expect({ code, passed: output.includes(`${target} scenario: every step passed`) }, output).to.deep.equal({ code: 0, passed: true });
    });
  }
});
