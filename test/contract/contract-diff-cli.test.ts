// The gate on the project's own openapi.yaml: in-process on edited copies, and `npm run contract:diff`'s command line
// (exit code and verdict). Written for any valid contract: the operation and schema edited are found, not named.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse, stringify } from 'yaml';
import { compareContracts } from '../../scripts/contract-diff/diff.ts';
import { Contract } from '../../scripts/contract-diff/document.ts';

type Json = Record<string, unknown>;

const root = fileURLToPath(new URL('../../', import.meta.url));
const contract = () => parse(readFileSync(`${root}openapi.yaml`, 'utf8'), { maxAliasCount: -1 }) as Json;

/** The first operation of the contract: its path, method and operationId. */
function firstOperation(document: Json): { path: string; method: string; operationId: unknown } {
  const [path, item] = Object.entries(document.paths as Json)[0]!;
  const [method, operation] = Object.entries(item as Json).find(([key]) => /^(get|put|post|delete|patch)$/.test(key))!;
  return { path, method, operationId: (operation as Json).operationId };
}

/** Runs `npm run contract:diff`'s script on `args`; resolves with its exit code and output. */
function gateCommand(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/contract-diff.ts', ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }));
  });
}

describe('contract diff gate on openapi.yaml', function () {
  let folder: string;
  before(() => { folder = mkdtempSync(join(tmpdir(), 'contract-diff-')); });
  after(() => folder && rmSync(folder, { recursive: true, force: true }));

  /** A copy of openapi.yaml changed by `edit`, written to a file. */
  function copy(edit: (document: Json) => void): string {
    const document = contract();
    edit(document);
    const file = join(folder, `${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, stringify(document, { lineWidth: 0 }));
    return file;
  }

  it('when the contract is compared with itself, then nothing is reported', function () {
    const { result, findings } = compareContracts(new Contract(contract()), new Contract(contract()));
    expect({ result, findings }).to.deep.equal({ result: 'NO_CHANGES', findings: [] });
  });

  it('when a property of a schema used as an anyOf branch is removed, then the gate breaks there', function () {
    const old = contract();
    // The first `anyOf` branch that names a component schema with properties (the list rows, today).
    const branch = [...JSON.stringify(old.paths).matchAll(/"anyOf":\[\{"\$ref":"#\/components\/schemas\/([^"]+)"/g)]
      .map((match) => match[1]!).find((name) => Object.keys(schemaOf(old, name).properties ?? {}).length);
    expect(branch, 'openapi.yaml answers no anyOf of component schemas').to.be.a('string');
    const next = contract();
    const target = schemaOf(next, branch!);
    const property = Object.keys(target.properties!)[0]!;
    delete target.properties![property];
    const { result, findings } = compareContracts(new Contract(old), new Contract(next));
    const where = `anyOf[${branch}].${property}`;
    const at = findings.filter(({ level, path }) => level === 'breaking' && path?.endsWith(where));
    const removed = at.every(({ message }) => message.startsWith('property removed'));
    expect({ result, reported: at.length > 0, removed })
      .to.deep.equal({ result: 'INCOMPATIBLE', reported: true, removed: true });
  });

  it('when only a description changes, then the command exits 0 saying METADATA', async function () {
    const changed = copy((document) => { (document.info as Json).description = 'Described anew.'; });
    const { code, output } = await gateCommand(['--old', 'openapi.yaml', '--new', changed]);
    expect({ code, metadata: /: METADATA$/m.test(output) }, output).to.deep.equal({ code: 0, metadata: true });
  });

  it('when an operation is removed within the major version, then the command exits 1, saying why', async function () {
    const { path, method, operationId } = firstOperation(contract());
    const changed = copy((document) => { delete ((document.paths as Json)[path] as Json)[method]; });
    const { code, output } = await gateCommand(['--old', 'openapi.yaml', '--new', changed]);
    expect({
      code,
      named: output.includes(`operation removed (\`${operationId}\`)`),
      verdict: /: INCOMPATIBLE$/m.test(output),
      says: output.includes("raise info.version's major number"),
    }, output).to.deep.equal({ code: 1, named: true, verdict: true, says: true });
  });

  it('when the same removal comes with a new major version, then the command exits 0', async function () {
    const { path, method } = firstOperation(contract());
    const changed = copy((document) => {
      delete ((document.paths as Json)[path] as Json)[method];
      const info = document.info as Json;
      info.version = `${Number(String(info.version).split('.')[0]) + 1}.0.0`;
    });
    const { code, output } = await gateCommand(['--old', 'openapi.yaml', '--new', changed]);
    expect({ code, verdict: /: INCOMPATIBLE$/m.test(output) }, output).to.deep.equal({ code: 0, verdict: true });
  });
});

function schemaOf(document: Json, name: string): { properties?: Json } {
  return ((document.components as Json).schemas as Json)[name] as { properties?: Json };
}
