// What a consumer of the npm package sees of the contract's deprecations: the TypeScript compiler reports each call of
// a deprecated operation (the generator's `@deprecated`), as an editor strikes it through, and no call of its
// successor. The consumer's code is clients/typescript/deprecated-calls.ts, type-checked against the installed package.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import ts from 'typescript';
import { missingTool, root, runClientScript } from '../support/client-scripts.ts';

const version = /^ {2}version: (.*)$/m.exec(await readFile(`${root}openapi.yaml`, 'utf8'))![1]!;

/** The compiler's findings on one file of a consumer project: its errors, and the text of each deprecated use. */
function compilerFindings(project: string, file: string): { errors: string[]; deprecated: string[] } {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], strict: true, noEmit: true,
  };
  const service = ts.createLanguageService({
    getCompilationSettings: () => options,
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      (ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined),
    getCurrentDirectory: () => project,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
  });
  const text = (diagnostic: ts.Diagnostic) =>
    diagnostic.file!.text.slice(diagnostic.start, diagnostic.start! + diagnostic.length!);
  return {
    errors: [...service.getSyntacticDiagnostics(file),
      ...service.getSemanticDiagnostics(file)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    deprecated: service.getSuggestionDiagnostics(file).filter((d) => d.reportsDeprecated).map(text),
  };
}

describe('SDK deprecations, as a consumer of the npm package sees them @database-independent', function () {
  let project: string;
  before(async function () {
    const missing = missingTool();
    if (missing) {
      console.warn(`    (SDK deprecation test skipped: ${missing})`);
      return this.skip();
    }
    this.timeout(30 * 60_000);
    // Up to date after the scenarios' build (clients/package.sh builds a package again only when its inputs changed).
    const built = await runClientScript('package.sh', ['typescript']);
    if (built.code !== 0) throw new Error(`clients/package.sh typescript failed (${built.code}):\n${built.output}`);
    project = await mkdtemp(join(tmpdir(), 'sighting-consumer-'));
    await writeFile(join(project, 'package.json'),
      '{ "name": "sighting-consumer", "private": true, "type": "module" }');
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--offline', '--silent',
      `${root}clients/dist/sighting-client-${version}.tgz`], { cwd: project });
    await copyFile(`${root}clients/typescript/deprecated-calls.ts`, join(project, 'deprecated-calls.ts'));
  });
  after(async () => { if (project) await rm(project, { recursive: true, force: true }); });

  it('when a consumer calls the deprecated reads of one version, ' +
    'then the compiler reports exactly those calls, not their successors', function () {
    expect(compilerFindings(project, join(project, 'deprecated-calls.ts'))).to.deep.equal({
      errors: [],
      deprecated: ['getTimezoneVersion', 'getVesselVersion', 'getSightingVersion', 'getSightingVersionRaw'],
    });
  });
});
