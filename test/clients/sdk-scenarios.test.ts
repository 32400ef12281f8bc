// The SDK packages (`npm run sdk`: npm tarball, Python wheel, Java jar), each installed from its file by a consumer
// project in a temporary folder (clients/consume.sh) and run through its scenario; the okhttp-gson Java SDK, not
// packaged, is built in place (clients/build.sh), and so are the Go and Kotlin SDKs (Go from Debian, installed by
// scripts/install-go.sh; Kotlin through Maven). Each package's README code runs after its scenario (consume.sh).
import { expect } from 'chai';
import { sharedService } from '../support/service.ts';
import { missingTool, runClientScript as run } from '../support/client-scripts.ts';

describe('SDK packages (npm run sdk) in consumer projects @database-independent', function () {
  before(async function () {
    const missing = missingTool();
    if (missing) {
      console.warn(`    (SDK tests skipped: ${missing})`);
      return this.skip();
    }
    // A fresh clone downloads the generator and the Java SDK's dependencies from Maven Central; later runs reuse them.
    this.timeout(30 * 60_000);
    // The Go toolchain and the two modules the Go SDK imports, from Debian (CI's machine starts without them).
    for (const [script, args] of [['../scripts/install-go.sh', []], ['package.sh', []],
      ['build.sh', ['java-okhttp-gson', 'go', 'kotlin']]] as const) {
      const built = await run(script, [...args]);
      if (built.code !== 0) throw new Error(`clients/${script} failed (${built.code}):\n${built.output}`);
    }
  });

  // The calls an SDK user makes first, each a step of every scenario (its `ok  <step>` line).
  const firstCalls = [
    'the default create: no throw, the new record\'s Location',
    'create returning the record: the typed detail view',
    'list rows in the list view: typed list items',
    'list rows in the detail view: typed detail rows',
    'a read with its ETag and API-Version headers',
    'a deprecated call: its Deprecation header',
    'batch create: the new ids in input order, each read back',
    'the change feed of each collection: a created event from the generated call',
    'a patch on a stale If-Match is a 412, a typed error',
    'paging: by id after the last row, and sorted by the Link header\'s cursor',
  ];
  // Go and Kotlin: the calls of their docs/sdk.md sections (create, the minimal create, paging, 412, batch, feed).
  const recipeCalls = firstCalls.filter((name) => !/^(list rows|a read|a deprecated)/.test(name));
  const scenarios: Array<[string, string, string[], boolean, string[]]> = [
    ['the npm package (typescript-fetch)', 'consume.sh', ['typescript'], true, firstCalls],
    ['the Python wheel', 'consume.sh', ['python'], true, firstCalls],
    ['the Java jar (native)', 'consume.sh', ['java'], true, firstCalls],
    ['the Java okhttp-gson SDK, built in place', 'run-scenario.sh', ['java-okhttp-gson'], false, firstCalls],
    ['the Go SDK, built in place', 'run-scenario.sh', ['go'], false, recipeCalls],
    ['the Kotlin SDK, built in place', 'run-scenario.sh', ['kotlin'], false, recipeCalls],
  ];
  for (const [what, script, args, packaged, steps] of scenarios) {
    it(`when ${what} runs the scenario against the service, ` +
      `then every step passes${packaged ? ', and so does its README\'s code' : ''}`, async function () {
      this.timeout(300_000);
      const service = await sharedService();
      const { code, output } =
        await run(script, [...args, service.api, `${service.realm}/protocol/openid-connect/token`]);
      expect({
        code,
        passed: /scenario: every step passed/.test(output),
        steps: steps.filter((name) => output.includes(`ok  ${name}`)),
        readme: /readme recipe: every step passed/.test(output),
      }, output).to.deep.equal({ code: 0, passed: true, steps, readme: packaged });
    });
  }
});
