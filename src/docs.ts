// Serves the contract (`/openapi.yaml`) and renders it with Swagger UI from the swagger-ui-dist package (`/docs`).
import express, { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { servedContract, type ServedContractOptions } from './served-contract.ts';

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
// Every operation requires the `bearer` scheme; a token got through the `oauth2` flows is sent as that bearer, to the
// API only (never to the token endpoint), unless a bearer token was entered itself.
const init = `function bearerFromOAuth(request) {
  var ui = window.ui;
  var api = ui && ui.specSelectors.specJson().getIn(['servers', 0, 'url']);
  var token = ui && ui.authSelectors.authorized() && ui.authSelectors.authorized().getIn(['oauth2', 'token', 'access_token']);
  if (api && token && request.url.indexOf(api + '/') === 0 && !request.headers.Authorization) {
    request.headers.Authorization = 'Bearer ' + token;
  }
  return request;
}
window.ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect.html',
  requestInterceptor: bearerFromOAuth,
});
window.ui.initOAuth({ clientId: 'sighting-web', usePkceWithAuthorizationCodeGrant: true, scopes: ['openid'] });`;

/** The contract as served names this instance: the origin it was fetched from (or PUBLIC_URL) and its provider. */
export function docsRouter(options: ServedContractOptions): Router {
  const served = servedContract(options);
  return Router()
    .get('/openapi.yaml', (req, res) => { res.type('application/yaml').send(served(`${req.protocol}://${req.host}`)); })
    .get(['/docs', '/docs/'], (_req, res) => { res.type('html').send(page); })
    .get('/docs/docs-init.js', (_req, res) => { res.type('js').send(init); })
    .use('/docs', express.static(swaggerUiDir, { index: false }));
}
