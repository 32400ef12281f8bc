// The contract as served at /openapi.yaml names this instance: the origin it was fetched from (PUBLIC_URL wins), the
// base path, and the configured provider's URLs with only the flows that provider offers.
import { expect } from 'chai';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { sharedService, startService, type TestService } from '../support/service.ts';

interface Served {
  servers: { url: string }[];
  components: { securitySchemes: { oauth2: { description: string; flows: Record<string, Record<string, unknown>> } } };
}

/** GET /openapi.yaml (or `path`) with a Host header of our choosing (fetch does not let a caller set Host). */
function fetchContract(service: TestService, host?: string, path = '/openapi.yaml'): Promise<Served> {
  return new Promise((resolve, reject) => {
    // The socket's own address: with PUBLIC_URL set, service.url names a host that need not resolve.
    const { port } = service.web.server.address() as AddressInfo;
    const url = new URL(`http://127.0.0.1:${port}${path}`);
    request(url, { headers: host ? { Host: host } : {} }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; })
        .on('end', () => resolve(parse(text) as Served));
    }).on('error', reject).end();
  });
}

const flowsAt = (realm: string, implicit: boolean) => {
  const endpoint = (name: string) => `${realm}/protocol/openid-connect/${name}`;
  return {
    authorizationCode: { authorizationUrl: endpoint('auth'), tokenUrl: endpoint('token'),
      refreshUrl: endpoint('token'), scopes: {} },
    ...(implicit && { implicit: { authorizationUrl: endpoint('auth'), scopes: {} } }),
    password: { tokenUrl: endpoint('token'), refreshUrl: endpoint('token'), scopes: {} },
    clientCredentials: { tokenUrl: endpoint('token'), scopes: {} },
  };
};

describe('the served contract', () => {
  describe('without PUBLIC_URL', () => {
    let service: TestService;
    before(async () => { service = await sharedService(); });

    it('when /openapi.yaml is fetched, ' +
      'then servers names the origin it was fetched from plus the base path', async () => {
      expect((await fetchContract(service)).servers)
        .to.deep.equal([{ url: `${service.api}`, 'x-internal': false, description: 'This service.' }]);
    });

    it('when it is fetched under another host name, then servers names that one', async () => {
      const port = new URL(service.url).port;
      expect((await fetchContract(service, `localhost:${port}`)).servers.map((s) => s.url)).to.deep.equal([`http://localhost:${port}/api`]);
    });
  });

  describe('with PUBLIC_URL and BASE_PATH, embedded provider', () => {
    let service: TestService;
    before(async () => { service = await startService({ PUBLIC_URL: 'http://sightings.example:9000', BASE_PATH: '/v1', KEYCLOAK_URL: undefined }); });
    after(async () => { await service?.stop(); });

    it('when /openapi.yaml is fetched under any host name, then servers names PUBLIC_URL plus BASE_PATH', async () => {
      const { port } = service.web.server.address() as AddressInfo;
      for (const host of [undefined, `localhost:${port}`]) {
        expect((await fetchContract(service, host)).servers.map((s) => s.url)).to.deep.equal(['http://sightings.example:9000/v1']);
      }
    });

    it('when its OAuth 2.0 flows are read, then they are the embedded provider\'s at PUBLIC_URL: authorization code, ' +
      'password, client credentials, no implicit', async () => {
      expect((await fetchContract(service)).components.securitySchemes.oauth2.flows).to.deep.equal(flowsAt('http://sightings.example:9000/realms/sighting', false));
    });

    it('when /docs/openapi.yaml (what Swagger UI shows) is read, then it offers one flow and says why', async () => {
      const served = await fetchContract(service, undefined, '/docs/openapi.yaml');
      const { authorizationCode } = flowsAt('http://sightings.example:9000/realms/sighting', false);
      expect(served.components.securitySchemes.oauth2.flows).to.deep.equal({ authorizationCode });
      expect(served.components.securitySchemes.oauth2.description)
        .to.match(/one OAuth 2\.0 flow a browser page can complete/)
        .and.match(/password .*and client credentials .*flows are not offered on this page/s);
      expect(served.servers.map((s) => s.url)).to.deep.equal(['http://sightings.example:9000/v1']);
    });
  });

  describe('with Keycloak configured', () => {
    let service: TestService;
    // Nothing listens there: serving the contract needs no call to the provider.
    before(async () => { service = await startService({ KEYCLOAK_URL: 'http://127.0.0.1:9/', KEYCLOAK_REALM: 'sighting' }); });
    after(async () => { await service?.stop(); });

    it('when its OAuth 2.0 flows are read, then they are Keycloak\'s, implicit included', async () => {
      expect((await fetchContract(service)).components.securitySchemes.oauth2.flows).to.deep.equal(flowsAt('http://127.0.0.1:9/realms/sighting', true));
    });

    it('when /docs/openapi.yaml is read, then it offers Keycloak\'s authorization code, no implicit', async () => {
      const { authorizationCode } = flowsAt('http://127.0.0.1:9/realms/sighting', true);
      const served = await fetchContract(service, undefined, '/docs/openapi.yaml');
      expect(served.components.securitySchemes.oauth2.flows).to.deep.equal({ authorizationCode });
    });
  });
});
