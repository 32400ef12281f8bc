// The open endpoints: liveness, readiness, the contract as YAML and its Swagger UI rendering, all without a token.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { sharedService, type TestService } from '../support/service.ts';
import { resources } from '../../src/resources/index.ts';

describe('health and documents', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  const get = (path: string) => fetch(`${service.url}${path}`);
  const mediaTypeOf = (asset: string): RegExp =>
    ({ css: /^text\/css/, js: /javascript/, png: /^image\/png/ })[asset.split('.').pop()!] ?? /^$/;

  describe('health', () => {
    it('when /health/live is asked without a token, then 200 UP', async () => {
      const response = await get('/health/live');

      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(await response.json()).to.deep.equal({ status: 'UP' });
    });

    it('when /health/ready is asked without a token and the database answers, then 200 UP', async () => {
      const response = await get('/health/ready');

      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ status: 'UP',
        components: { database: 'UP', migrations: 'UP', identityProvider: 'UP', changeFeed: 'UP' } });
    });
  });

  describe('the contract', () => {
    it('when /openapi.yaml is fetched without a token, ' +
      'then it is the contract: OpenAPI 3.1.0 with every path of openapi.yaml', async () => {
      const response = await get('/openapi.yaml');

      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/yaml/);
      const served =
        parse(await response.text()) as { openapi: string; paths: Record<string, unknown>; info: { title: string } };
      expect(served.openapi).to.equal('3.1.0');
      expect(served.info.title).to.equal('Sighting registry');
      // Every collection a descriptor defines has its three paths, whatever the collections are.
      expect(served.paths)
        .to.include.keys(resources.flatMap(({ name }) => [`/${name}`, `/${name}/qbe`, `/${name}/{id}`]));
      const file = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { paths: unknown };
      expect(served.paths).to.deep.equal(file.paths);
    });

    it('when /openapi.yaml is served, then its OAuth URLs point at the realm this service trusts', async () => {
      const served = parse(await (await get('/openapi.yaml')).text()) as {
        components: { securitySchemes: { oauth2: { flows: { password: { tokenUrl: string };
          authorizationCode: { authorizationUrl: string } } } } };
      };

      const { flows } = served.components.securitySchemes.oauth2;
      expect(flows.password.tokenUrl).to.equal(`${service.realm}/protocol/openid-connect/token`);
      expect(flows.authorizationCode.authorizationUrl).to.equal(`${service.realm}/protocol/openid-connect/auth`);
    });
  });

  describe('Swagger UI', () => {
    it('when /docs is opened without a token, then an HTML page with Swagger UI comes back, and every script, ' +
      'style and icon it references is served', async () => {
      const response = await get('/docs');

      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/html/);
      const page = await response.text();
      expect(page).to.include('swagger-ui');
      const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      const fingerprinted = /^\/docs\/assets\/[\w-]{12}\/(swagger-ui\.css|swagger-ui-bundle\.js|docs-init\.js|docs-contrast\.css|favicon-32x32\.png)$/;
      expect(assets.map((asset) => fingerprinted.exec(asset)?.[1])).to.have.members(['swagger-ui.css',
        'swagger-ui-bundle.js', 'docs-init.js', 'docs-contrast.css', 'favicon-32x32.png']);
      expect(response.headers.get('cache-control')).to.equal('no-cache');
      for (const asset of assets) {
        const served = await get(asset);
        expect(served.status, asset).to.equal(200);
        // Named by content: cached for a year, never revalidated.
        expect(served.headers.get('cache-control'), asset).to.equal('public, max-age=31536000, immutable');
        expect(served.headers.get('content-type'), asset).to.match(mediaTypeOf(asset));
        expect((await served.text()).length, asset).to.be.greaterThan(0);
      }
    });

    it('when the page\'s start script is fetched, then it points Swagger UI at the contract /docs shows', async () => {
      const response = await get('/docs/docs-init.js');

      expect(response.status).to.equal(200);
      expect(await response.text()).to.include("url: '/docs/openapi.yaml'");
    });
  });
});
