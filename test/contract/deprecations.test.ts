// Which parts of an operation openapi.yaml deprecates, and when a request uses them (src/contract/deprecations.ts).
import { expect } from 'chai';
import { deprecationsOf } from '../../src/contract/deprecations.ts';
import { openApiDocument } from '../../src/contract/document.ts';

const since = { 'x-deprecated-since': { version: '2.3.0', date: '2026-12-01' }, 'x-sunset': '2027-06-30' };
const request = (query: Record<string, unknown> = {}, body: unknown = undefined) => ({ query, headers: {}, body });

describe('deprecations of an operation', () => {
  it('when an operation and one of its parameters are deprecated, ' +
    'then each is found and used as the request says', () => {
    const found = deprecationsOf({
      deprecated: true, ...since,
      parameters: [{ name: 'after', in: 'query', deprecated: true, ...since } as never, { name: 'limit', in: 'query' }],
    } as never);
    expect(found.map(({ element, since: at, release, sunset }) =>
      ({ element, at, release, sunset: sunset.toISOString() }))).to.deep.equal([
      { element: 'operation', at: Date.UTC(2026, 11, 1) / 1000, release: '2.3.0', sunset: '2027-06-30T00:00:00.000Z' },
      { element: 'query after', at: Date.UTC(2026, 11, 1) / 1000, release: '2.3.0',
        sunset: '2027-06-30T00:00:00.000Z' },
    ]);
    expect(found.map((d) => [d.usedBy(request()), d.usedBy(request({ after: '5' }))]))
      .to.deep.equal([[true, true], [false, true]]);
  });

  it('when a deprecation has no sunset, then it is refused as a contract error', () => {
    expect(() => deprecationsOf({ deprecated: true, 'x-deprecated-since': since['x-deprecated-since'] } as never))
      .to.throw(/x-sunset/);
  });

  it('when openapi.yaml is read, ' +
    'then the PATCH operations deprecate the body property version, used only when sent', () => {
    const patch = deprecationsOf(openApiDocument.paths['/sighting/{id}']!['patch']!);
    expect(patch.map(({ element, release }) => ({ element, release })))
      .to.deep.equal([{ element: 'property version', release: '1.1.0' }]);
    expect([patch[0]!.usedBy(request({}, { version: 0 })), patch[0]!.usedBy(request({}, { sightingMemo: 'x' }))])
      .to.deep.equal([true, false]);
  });

  it('when openapi.yaml is read, ' +
    'then the reads of one version are deprecated operations since 1.2.0 and the filtered histories are not', () => {
    for (const collection of ['timezone', 'vessel', 'sighting']) {
      const read = deprecationsOf(openApiDocument.paths[`/${collection}/{id}/versions/{version}`]!['get']!);
      expect(read.map(({ element, since: at, release, sunset }) =>
        ({ element, at, release, sunset: sunset.toISOString() })), collection).to.deep.equal([
        { element: 'operation', at: Date.UTC(2026, 10, 27) / 1000, release: '1.2.0',
          sunset: '2027-05-27T00:00:00.000Z' },
      ]);
      expect(read[0]!.usedBy(request()), collection).to.equal(true);
      expect(deprecationsOf(openApiDocument.paths[`/${collection}/{id}/versions`]!['get']!),
        collection).to.deep.equal([]);
    }
  });
});
