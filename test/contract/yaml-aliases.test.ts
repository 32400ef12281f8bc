// openapi.yaml stays readable by the YAML parser OpenAPI Generator uses (snakeyaml through swagger-parser): it refuses
// a document with more than 50 aliases of maps or lists ("Number of aliases for non-scalar nodes exceeds the specified
// max=50"), and not every one of swagger-parser's reads lets a caller raise that (swagger-api/swagger-parser#2073).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { isAlias, isCollection, parseDocument, visit } from 'yaml';
import { withCollection } from '../../tools/resource/contract-part.ts';
import { withField } from '../../tools/resource/field-part.ts';
import { parseDescription, parseField } from '../../tools/resource/description.ts';

const snakeyamlAliasLimit = 50;

/** The aliases of maps or lists in a YAML text (scalar aliases do not count against snakeyaml's limit). */
function collectionAliases(text: string): number {
  const document = parseDocument(text);
  let aliases = 0;
  visit(document, {
    Alias: (_key, node) => { if (isAlias(node) && isCollection(node.resolve(document))) aliases++; },
  });
  return aliases;
}

describe('openapi.yaml for SDK generators', () => {
  const contract = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');

  it(`when openapi.yaml is read, then it has at most ${snakeyamlAliasLimit} aliases of maps or lists`, () => {
    expect(collectionAliases(contract)).to.be.above(0).and.at.most(snakeyamlAliasLimit);
  });

  it('when the generators add a collection and a text field to it, then they add no alias of a map or list', () => {
    const planet = parseDescription(['planet', 'planetName:text(2..50)', 'mass:integer(0..)', '--read', 'reader',
      '--write', 'admin']);
    const withPlanet = withCollection(contract, planet);
    const withMoon = withField(withPlanet, planet, parseField('moonName:text(1..40)'));
    const before = collectionAliases(contract);
    expect([withPlanet, withMoon].map(collectionAliases)).to.deep.equal([before, before]);
  });
});
