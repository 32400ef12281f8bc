// The SDK packages (`npm run sdk`: npm tarball, Python wheel, Java jar), each installed from its file by a consumer
// project in a temporary folder (clients/consume.sh) and run through its scenario; the okhttp-gson Java SDK, not
// packaged, is built in place (clients/build.sh). The service answers directly: Prism holds a create's 201 to the body
// the contract declares for `Prefer`, and the scenarios create both ways.
import { expect } from 'chai';
import { sharedService } from '../support/service.ts';
import { missingTool, runClientScript as run } from '../support/client-scripts.ts';

describe('SDK packages (npm run sdk) in consumer projects', function () {
  before(async function () {
    const missing = missingTool();
    if (missing) {
      console.warn(`    (SDK tests skipped: ${missing})`);
      return this.skip();
    }
    // A fresh clone downloads the generator and the Java SDK's dependencies from Maven Central; later runs reuse them.
    this.timeout(30 * 60_000);
    for (const [script, args] of [['package.sh', []], ['build.sh', ['java-okhttp-gson']]] as const) {
      const built = await run(script, [...args]);
      if (built.code !== 0) throw new Error(`clients/${script} failed (${built.code}):\n${built.output}`);
    }
  });

  const scenarios: Array<[string, string, string[]]> = [
    ['the npm package (typescript-fetch)', 'consume.sh', ['typescript']],
    ['the Python wheel', 'consume.sh', ['python']],
    ['the Java jar (native)', 'consume.sh', ['java']],
    ['the Java okhttp-gson SDK, built in place', 'run-scenario.sh', ['java-okhttp-gson']],
  ];
  for (const [what, script, args] of scenarios) {
    it(`when ${what} runs the scenario against the service, then every step passes, creating with and without Prefer`, async function () {
      this.timeout(300_000);
      const service = await sharedService();
      const { code, output } = await run(script, [...args, service.api, `${service.realm}/protocol/openid-connect/token`]);
      expect({ code, passed: /scenario: every step passed/.test(output), bothCreates: (output.match(/ok {2}create with/g) ?? []).length }, output)
        .to.deep.equal({ code: 0, passed: true, bothCreates: 2 });
    });
  }
});
