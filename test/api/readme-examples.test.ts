// The README's examples work as a newcomer pastes them: the TOKEN line `npm start` prints, the curl call after it,
// and every HTTP request of the README and the pages that continue it, in order on a fresh start, each answered as
// shown.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { startService, type TestService } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { tokenAssignment } from '../../src/dev-provider/index.ts';

const read = (page: string) => readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
const readme = read('README.md');
/**
 * The README's first call, then the pages whose examples go on from it (their ids count on from the README's create).
 */
const examplePages = [readme, read('docs/api.md'), read('docs/xml.md')];
const documented = 'http://localhost:8080';

interface Message { startLine: string; headers: [string, string][]; body: string }

/** A README ```http block: start line, headers, a blank line, then the body. */
function message(block: string): Message {
  const [head = '', ...rest] = block.split(/\n\n/);
  const [startLine = '', ...headerLines] = head.split('\n');
  const headers = headerLines.map((line) =>
    [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]);
  return { startLine, headers, body: rest.join('\n\n').trim() };
}

const httpBlocks =
  examplePages.flatMap((page) => [...page.matchAll(/```http\n([\s\S]*?)```/g)]).map((m) => message(m[1]!.trim()));
const exchanges = httpBlocks.flatMap((block, index) =>
  (block.startLine.startsWith('HTTP/') ? [] : [{ request: block, response: httpBlocks[index + 1]! }]));

describe('README examples', () => {
  let service: TestService;
  // A fresh start of our own, with the embedded provider the README's TOKEN line talks to.
  before(async () => { service = await startService({ KEYCLOAK_URL: undefined }); });
  after(async () => { await service?.stop(); });

  it('when npm start prints the TOKEN line, then it is the README\'s, character for character', () => {
    const line = tokenAssignment({ issuer: `${documented}/realms/sighting` });
    expect(readme.split('\n')).to.include(line);
  });

  it('when the TOKEN line and the curl call after it are run in a shell, ' +
    'then the answer is the one the README shows', async () => {
    const lines = readme.split('\n');
    const start = lines.findIndex((line) => line.startsWith('TOKEN=$('));
    const [tokenLine, curlLine, answerLine] =
      lines.slice(start, start + 3).map((line) => line.replaceAll(documented, service.url));
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -e; ${tokenLine}; ${curlLine}`]);
    expect(JSON.parse(stdout)).to.deep.equal(JSON.parse(answerLine!.replace(/^# /, '')));
  });

  it('when a newcomer reads the README, then it is at most 250 lines and every page it links exists', () => {
    const links = [...readme.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect({ lines: readme.split('\n').length <= 250,
      missing: links.filter((link) => !existsSync(new URL(`../../${link}`, import.meta.url))) })
      .to.deep.equal({ lines: true, missing: [] });
  });

  it('when the README has a first HTTP call of its own, then it is a request', () => {
    expect([...readme.matchAll(/```http\n(\S+)/g)].map((m) => m[1])[0])
      .to.be.oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('when the README\'s HTTP requests and its pages\' are sent in order, ' +
    'then each answer has the status, headers and body the README shows', async () => {
    expect(exchanges.length).to.be.at.least(5);
    const token = await tokenFor(service.realm, 'alice');
    for (const { request, response } of exchanges) {
      const [method = '', path = ''] = request.startLine.split(' ');
      const headers = Object.fromEntries(request.headers.map(([name, value]) =>
        [name, name === 'Authorization' ? `Bearer ${token}` : value]));
      const answer = await fetch(`${service.url}${path}`, { method, headers, body: request.body || undefined });
      const text = await answer.text();
      const shown = response.startLine.split(' ')[1];
      const type = answer.headers.get('content-type') ?? '';
      const got = {
        status: String(answer.status),
        headers: Object.fromEntries(response.headers.map(([name]) => [name, answer.headers.get(name)])),
        body: type.startsWith('application/json') ? JSON.parse(text) : text,
      };
      const expected = {
        status: shown,
        headers: Object.fromEntries(response.headers),
        body: type.startsWith('application/json') && response.body ? JSON.parse(response.body) : response.body,
      };
      expect(got, request.startLine).to.deep.equal(expected);
    }
  });
});
