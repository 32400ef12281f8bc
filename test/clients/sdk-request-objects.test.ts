// typescript-axios as the project generates it (clients/build.sh typescript-axios, `useSingleRequestParameter`): a
// consumer's calls name the parameters they set (clients/typescript/axios-calls.ts), and the compiler accepts them;
// positional calls would be errors. The Java SDKs' request objects run in the scenarios (sdk-scenarios.test.ts).
import { copyFile, writeFile } from 'node:fs/promises';
import { expect } from 'chai';
import ts from 'typescript';
import { missingTool, root, runClientScript } from '../support/client-scripts.ts';

const generated = `${root}clients/build/typescript-axios`;

/** The compiler's errors on one file, its imports (the generated SDK, axios) resolved as a bundler would. */
function compilerErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], strict: true, noEmit: true, skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('typescript-axios with request objects, as a consumer compiles it @database-independent', function () {
  before(async function () {
    const missing = missingTool();
    if (missing) {
      console.warn(`    (typescript-axios test skipped: ${missing})`);
      return this.skip();
    }
    this.timeout(10 * 60_000);
    const built = await runClientScript('build.sh', ['typescript-axios']);
    if (built.code !== 0) throw new Error(`clients/build.sh typescript-axios failed (${built.code}):\n${built.output}`);
    await copyFile(`${root}clients/typescript/axios-calls.ts`, `${generated}/axios-calls.ts`);
  });

  it('when a consumer names the parameters of its calls, then they compile; by position, they do not',
    async function () {
    const positional = `${generated}/positional-call.ts`;
    await writeFile(positional, [
      "import { Configuration, SightingApi } from './sdk/index';",
      'export const call = new SightingApi(new Configuration()).listSightings(-1, undefined, undefined, 10);',
    ].join('\n'));
    expect({ named: compilerErrors(`${generated}/axios-calls.ts`), positional: compilerErrors(positional).length > 0 })
      .to.deep.equal({ named: [], positional: true });
  });
});
