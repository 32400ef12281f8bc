// If-Match is read by RFC 9110's grammar: `*` alone or a list of entity tags; anything else is a 400 on the header.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, createSighting } from '../support/fixtures.ts';

const invalid = { 'if-match': { key: 'error.ifMatch.invalid',
  message: 'If-Match must be * alone or a comma-separated list of entity tags such as "3".' } };

describe('If-Match syntax', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const put = (id: number, ifMatch: string, version = 0) => rawRequest(service, 'PUT', `/sighting/${id}`, {
    body: JSON.stringify({ ...buildSighting(), version }),
    headers: { 'Content-Type': 'application/json', 'If-Match': ifMatch },
  });
  const versionOf = async (id: number) =>
    ((await (await rawRequest(service, 'GET', `/sighting/${id}`)).json()) as { version: number }).version;

  for (const junk of ['"0", *', '*, "0"', '* *', '0', '"0', 'W/0', 'w/"0"', '"0" "1"', '"0";"1"', '**',
    'W/ "0"', '"a"b"']) {
    it(`when If-Match is ${junk}, then 400 on if-match and nothing is written`, async () => {
      const id = await createSighting(service);
      const response = await put(id, junk);
      expect({ status: response.status, body: await response.json() }).to.deep.equal({ status: 400, body: invalid });
      expect(await versionOf(id)).to.equal(0);
      const removal = await rawRequest(service, 'DELETE', `/sighting/${id}`, { headers: { 'If-Match': junk } });
      expect(removal.status).to.equal(400);
    });
  }

  for (const [header, status] of [['"0"', 204], ['"5", "0"', 204], [', "0",', 204], ['"1","0"', 204], ['*', 204],
    ['W/"0"', 412], ['"a,b", "0"', 204], ['"a,b"', 412], ['"00"', 412]] as const) {
    it(`when If-Match is ${header} on version 0, then ${status}`, async () => {
      const id = await createSighting(service);
      expect((await put(id, header)).status).to.equal(status);
    });
  }

  it('when a merge patch carries an invalid If-Match, then 400 on if-match, not 428', async () => {
    const id = await createSighting(service);
    const response = await rawRequest(service, 'PATCH', `/sighting/${id}`, {
      body: '{"sightingMemo":"patched"}',
      headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': '"0", *' },
    });
    expect({ status: response.status, body: await response.json() }).to.deep.equal({ status: 400, body: invalid });
  });
});
