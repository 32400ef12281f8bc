// The tests' reading of the contract takes a client-chosen key as data: nothing inherited is looked up by it.
import { expect } from 'chai';
import { answeringOperation, operationFor } from '../support/contract-paths.ts';
import { prototypeNames } from '../support/hostile-arbitraries.ts';

describe('the harness reads the contract by own keys only', () => {
  for (const name of prototypeNames) {
    it(`when a list asks view=${name}, then the list's own operation answers it (no inherited member)`, () => {
      expect(answeringOperation('GET', '/sighting', { search: `?view=${encodeURIComponent(name)}` }))
        .to.deep.equal({ template: '/sighting', method: 'get' });
    });

    it(`when the method is ${name}, then the path has no such operation`, () => {
      expect(operationFor(name, '/sighting')).to.equal(undefined);
    });
  }

  it('when a list asks view=detail, then the operation the contract names for it answers (the lookup still works)',
    () => {
    expect(answeringOperation('GET', '/sighting', { search: '?view=detail' }))
      .to.deep.equal({ template: '/sighting/detail-view', method: 'get' });
  });
});
