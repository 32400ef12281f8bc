// openapi.yaml stays readable by the YAML parser OpenAPI Generator uses (snakeyaml through swagger-parser): it refuses
// a document with more than 50 aliases of maps or lists ("Number of aliases for non-scalar nodes exceeds the specified
// max=50"), and not every one of swagger-parser's reads lets a caller raise that (swagger-api/swagger-parser#2073).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { isAlias, isCollection, parseDocument, visit } from 'yaml';

const snakeyamlAliasLimit = 50;

describe('openapi.yaml for SDK generators', () => {
  it(`when openapi.yaml is read, then it has at most ${snakeyamlAliasLimit} aliases of maps or lists`, () => {
    const document = parseDocument(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    let aliases = 0;
    visit(document, {
      Alias: (_key, node) => { if (isAlias(node) && isCollection(node.resolve(document))) aliases++; },
    });
    expect(aliases).to.be.above(0).and.at.most(snakeyamlAliasLimit);
  });
});
