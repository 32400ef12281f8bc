import { expect } from 'chai';
import { spawnSync } from 'node:child_process';

const module = new URL('../../src/validation/url-parse-warning.ts', import.meta.url).href;

/** Calls url.parse in a fresh Node process, from outside node_modules, after settling the warning or not. */
function parseInFreshProcess(settleFirst: boolean): { stdout: string; stderr: string } {
  const script = `import url from 'node:url';
    ${settleFirst ? `(await import(${JSON.stringify(module)})).settleUrlParseWarning();` : ''}
    console.log(JSON.stringify({ noDeprecation: process.noDeprecation ?? false }));
    url.parse('/api/sighting/-1');`;
  const { stdout, stderr, status } = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(status, stderr).to.equal(0);
  return { stdout, stderr };
}

describe('the url.parse deprecation check', () => {
  it('is still pending in a process that did not settle it (so a settled one shows the difference)', () => {
    expect(parseInFreshProcess(false).stderr).to.include('DEP0169');
  });

  it('is settled at start without a warning, and deprecation warnings are not left silenced', () => {
    const { stdout, stderr } = parseInFreshProcess(true);
    expect(stderr).not.to.include('DEP0169');
    expect(JSON.parse(stdout)).to.deep.equal({ noDeprecation: false });
  });
});
