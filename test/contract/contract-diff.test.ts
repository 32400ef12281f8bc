// The breaking-change gate (`npm run contract:diff`): openapi-diff on temporary copies of openapi.yaml.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseDocument, type Document } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));
const javaHome = process.env.CLIENTS_JAVA_HOME ?? '/usr/lib/jvm/java-17-openjdk-amd64';

/** Runs the gate on openapi.yaml against a copy changed by `change`; resolves with its exit code and output. */
function gate(folder: string, change: (contract: Document) => void): Promise<{ code: number; output: string }> {
  const contract = parseDocument(readFileSync(`${root}openapi.yaml`, 'utf8'));
  change(contract);
  const changed = join(folder, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(changed, contract.toString({ lineWidth: 0 }));
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/contract-diff.ts', '--old', 'openapi.yaml', '--new', changed], { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }));
  });
}

describe('contract diff gate (npm run contract:diff)', function () {
  // The first run asks Maven Central for openapi-diff; each later run starts a JVM and parses the contract twice.
  this.timeout(10 * 60_000);
  let folder: string;
  before(function () {
    if (!existsSync(`${javaHome}/bin/java`) || !existsSync('/usr/bin/mvn')) this.skip(); // openapi-diff needs Java 17 and Maven (README, prerequisites)
    folder = mkdtempSync(join(tmpdir(), 'contract-diff-'));
  });
  after(() => folder && rmSync(folder, { recursive: true, force: true }));

  const breaking: Record<string, (contract: Document) => void> = {
    'a response property is removed': (c) => {
      c.deleteIn(['components', 'schemas', 'SightingDetail', 'properties', 'sightingMemo']);
      c.setIn(['components', 'schemas', 'SightingDetail', 'required'], c.createNode(['version', 'sightingId', 'vessel', 'sightingTimezone', 'sightingDate']));
    },
    'a parameter becomes required': (c) => c.setIn(['components', 'parameters', 'limit', 'required'], true),
    // Each operation's `view` names its one view (2.0.0); the list's value replaced is a value the request enum lost.
    'a request enum is narrowed': (c) => c.setIn(['components', 'parameters', 'listView', 'schema', 'enum'], c.createNode(['detail'])),
  };
  for (const [what, change] of Object.entries(breaking)) {
    it(`when ${what} under the same major version, then the gate fails and says why`, async function () {
      const { code, output } = await gate(folder, change);
      expect({ code, result: /: INCOMPATIBLE$/m.test(output), says: output.includes("raise info.version's major number") }, output)
        .to.deep.equal({ code: 1, result: true, says: true });
    });
  }

  it('when the same breaking change comes with a new major version, then the gate passes', async function () {
    const { code, output } = await gate(folder, (c) => {
      breaking['a parameter becomes required']!(c);
      c.setIn(['info', 'version'], `${Number(String(c.getIn(['info', 'version'])).split('.')[0]) + 1}.0.0`);
    });
    expect({ code, result: /: INCOMPATIBLE$/m.test(output) }, output).to.deep.equal({ code: 0, result: true });
  });

  it('when an optional response property is added, then the gate passes and the changelog names it under Changed', async function () {
    const { code, output } = await gate(folder, (c) => c.setIn(['components', 'schemas', 'SightingDetail', 'properties', 'sightingNote'], c.createNode({ type: 'string' })));
    expect({ code, result: /: COMPATIBLE$/m.test(output), changed: /^#+ Changed$/m.test(output), named: output.includes('sightingNote') }, output)
      .to.deep.equal({ code: 0, result: true, changed: true, named: true });
  });
});
