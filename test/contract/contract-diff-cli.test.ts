// The gate on the project's own openapi.yaml: in-process on edited copies, and `npm run contract:diff`'s command line
// (exit code and verdict). Written for any valid contract: the operation and schema edited are found, not named.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse, stringify } from 'yaml';
import { compareContracts } from '../../tools/contract-diff/diff.ts';
import { Contract } from '../../tools/contract-diff/document.ts';

type Json = Record<string, unknown>;

const root = fileURLToPath(new URL('../../', import.meta.url));
const contract = () => parse(readFileSync(`${root}openapi.yaml`, 'utf8'), { maxAliasCount: -1 }) as Json;

/** The first operation of the contract: its path, method and operationId. */
function firstOperation(document: Json): { path: string; method: string; operationId: unknown } {
  const [path, item] = Object.entries(document.paths as Json)[0]!;
  const [method, operation] = Object.entries(item as Json).find(([key]) => /^(get|put|post|delete|patch)$/.test(key))!;
  return { path, method, operationId: (operation as Json).operationId };
}

/** Whether `node` uses the component schema `name`, directly or through other components (an event's record). */
function refersTo(document: Json, node: unknown, name: string, seen = new Set<string>()): boolean {
  return [...JSON.stringify(node).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)].some(([, kind, ref]) => {
    if (kind === 'schemas' && ref === name) return true;
    if (seen.has(`${kind}/${ref}`)) return false;
    seen.add(`${kind}/${ref}`);
    return refersTo(document, ((document.components as Json)[kind!] as Json)[ref!], name, seen);
  });
}

/** Runs `npm run contract:diff`'s script on `args`; resolves with its exit code and output. */
function gateCommand(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['tools/contract-diff.ts', ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 },
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

  it('when a property of the list rows is removed or retyped, then every operation answering them breaks', function () {
    const old = contract();
    // The rows of the first list: the component schema a GET answers as `items` of a JSON array.
    const rows = JSON.stringify(old.paths).match(/"items":\{"\$ref":"#\/components\/schemas\/([^"]+)"/)?.[1];
    expect(rows, 'openapi.yaml answers no array of component schemas').to.be.a('string');
    const answering = Object.entries(old.paths as Json).flatMap(([path, item]) => Object.entries(item as Json)
      .filter(([, operation]) => refersTo(old, operation, rows!)).map(([method]) => `${method.toUpperCase()} ${path}`));
    const [removed, retyped] = Object.keys(schemaOf(old, rows!).properties!);
    const next = contract();
    const target = schemaOf(next, rows!);
    delete target.properties![removed!];
    target.properties![retyped!] = { type: 'boolean' };
    const { result, findings } = compareContracts(new Contract(old), new Contract(next));
    const breaking = (property: string, message: RegExp) => [...new Set(findings
      .filter((finding) => finding.level === 'breaking' && finding.path?.endsWith(`.${property}`))
      .filter((finding) => message.test(finding.message)).map((finding) => finding.operation))].sort();
    expect({ result, removedIn: breaking(removed!, /^property removed/), retypedIn: breaking(retyped!, /→/) })
      .to.deep.equal({ result: 'INCOMPATIBLE', removedIn: [...answering].sort(), retypedIn: [...answering].sort() });
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
