// Serves the contract (`/openapi.yaml`) and renders it with Swagger UI from the swagger-ui-dist package (`/docs`).
import express, { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { openApiText } from './validation/openapi-document.ts';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sighting registry API</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/docs-init.js"></script></body></html>`;

// Kept out of the page so a strict Content-Security-Policy (no inline script) still allows it.
// "Authorize" signs in with the browser client (authorization code + PKCE); the redirect page is served under /docs
// (Swagger UI's default, derived from the page path `/docs`, would be the unserved `/oauth2-redirect.html`).
const init = `window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect.html',
});
window.ui.initOAuth({ clientId: 'sighting-web', usePkceWithAuthorizationCodeGrant: true, scopes: ['openid'] });`;

/** The contract as served: its OAuth URLs point at the realm this instance trusts. */
export function docsRouter(realmUrl: string): Router {
  const served = openApiText.replaceAll('http://localhost:8080/realms/sighting', realmUrl);
  return Router()
    .get('/openapi.yaml', (_req, res) => { res.type('application/yaml').send(served); })
    .get(['/docs', '/docs/'], (_req, res) => { res.type('html').send(page); })
    .get('/docs/docs-init.js', (_req, res) => { res.type('js').send(init); })
    .use('/docs', express.static(swaggerUiDir, { index: false }));
}
