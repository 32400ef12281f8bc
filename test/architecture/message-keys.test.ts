// Guards that every message key has a text: a key spelled out in code is typed by the English bundle (tsc refuses an
// unknown one in `npm run check`), a key the contract names is checked here, and each common refusal is made once,
// by its factory in src/errors/refusals.ts.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import de from '../../locales/de.json' with { type: 'json' };
import { openApiDocument } from '../../src/contract/document.ts';
import { message } from '../../src/i18n/messages.ts';
import { AppError, NotFound, type FieldProblem } from '../../src/errors/app-errors.ts';
import * as refusals from '../../src/errors/refusals.ts';

const root = join(import.meta.dirname, '..', '..');

/** Every key an `x-message-keys` of the contract names, wherever in the document it stands. */
function contractKeys(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => contractKeys(item, found));
  else if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === 'x-message-keys') Object.values(value as Record<string, string>).forEach((key) => found.add(key));
      else contractKeys(value, found);
    }
  }
  return found;
}

describe('message keys', () => {
  it('when openapi.yaml names a message key, then en and de have a text for it', () => {
    const keys = [...contractKeys(openApiDocument)];
    expect(keys, 'keys the contract names').to.include('sighting.memo.minLength');
    expect(keys.filter((key) => !Object.hasOwn(en, key) || !Object.hasOwn(de, key))).to.deep.equal([]);
  });

  it('when code names a key the English bundle lacks, then tsc refuses it, and it renders as {key}', () => {
    // Each line below must not compile: `npm run check` (tsc over test/) fails once one does.
    // @ts-expect-error 'error.noSuchKey' is no key of locales/en.json
    const rendered = message('en', 'error.noSuchKey');
    // @ts-expect-error an error's key is a key of locales/en.json
    const error = new NotFound('error.noSuchKey');
    // @ts-expect-error a field problem's key too, unless the contract names it
    const problem: FieldProblem = { field: 'sightingMemo', key: 'sighting.memo.noSuchRule' };
    expect([rendered, error.status, problem.field]).to.deep.equal(['{error.noSuchKey}', 404, 'sightingMemo']);
  });

  it('when a common refusal is made, then its factory gives a 4xx or 5xx with a key en and de have a text for', () => {
    const made =
      Object.entries(refusals).map(([name, factory]) => [name, (factory as (arg?: string) => AppError)()] as const);
    expect(made.length).to.be.greaterThan(10);
    for (const [name, error] of made) {
      expect(error, name).to.be.instanceOf(AppError);
      expect(error.status, name).to.be.within(400, 599);
      expect([Object.hasOwn(en, error.key), Object.hasOwn(de, error.key)], `${name}: ${error.key}`)
        .to.deep.equal([true, true]);
    }
    expect(refusals.methodNotAllowed('GET, HEAD').headers).to.deep.equal({ Allow: 'GET, HEAD' });
  });

  it('when src/ refuses with a key a factory makes, ' +
    'then it calls that factory instead of making the error itself', () => {
    const keys = Object.values(refusals).map((factory) => (factory as (arg?: string) => AppError)().key);
    const madeTwice = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .filter((path) => path !== 'src/errors/refusals.ts')
      .flatMap((path) => [...readFileSync(join(root, path), 'utf8').matchAll(/new (?:\w+\.)?\w+\('([\w.]+)'/g)]
        .filter(([, key]) => keys.includes(key as never)).map(([made]) => `${path}: ${made}`));
    expect(madeTwice).to.deep.equal([]);
  });
});
