// Serves the contract (`/openapi.yaml`) and renders it with Swagger UI from the swagger-ui-dist package (`/docs`).
import express, { Router, type Request } from 'express';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { servedContract, type ServedContractOptions } from './served-contract.ts';
import { changelogPath } from '../http/deprecation-notice.ts';
import { sendStatic, staticAnswer, type StaticAnswer } from '../http/static-answer.ts';
import { compressedOnce } from '../http/compressed-once.ts';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));


// Kept out of the page so a strict Content-Security-Policy (no inline script) still allows it.
// "Authorize" signs in with the browser client (authorization code + PKCE); the redirect page is served under /docs
// (Swagger UI's default, derived from the page path `/docs`, would be the unserved `/oauth2-redirect.html`).
// Every operation requires the `bearer` scheme; a token got through the `oauth2` flows is sent as that bearer, to the
// API only (never to the token endpoint), unless a bearer token was entered itself.
const init = `function bearerFromOAuth(request) {
  var ui = window.ui;
  var api = ui && ui.specSelectors.specJson().getIn(['servers', 0, 'url']);
  var token = ui && ui.authSelectors.authorized()
    && ui.authSelectors.authorized().getIn(['oauth2', 'token', 'access_token']);
  if (api && token && request.url.indexOf(api + '/') === 0 && !request.headers.Authorization) {
    request.headers.Authorization = 'Bearer ' + token;
  }
  return request;
}
window.ui = SwaggerUIBundle({
  url: '/docs/openapi.yaml',
  dom_id: '#swagger-ui',
  oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect.html',
  requestInterceptor: bearerFromOAuth,
});
window.ui.initOAuth({ clientId: 'sighting-web', usePkceWithAuthorizationCodeGrant: true, scopes: ['openid'] });
// Swagger UI renders some controls without a name (WCAG 4.1.2): the server picker, a parameter's value picker, an
// answer's picker of named examples, and its responses tables, each a region of the same name. Name them as they
// appear.
new MutationObserver(function () {
  var servers = document.getElementById('servers');
  if (servers && !servers.getAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
  document.querySelectorAll('tr[data-param-name] select:not([aria-label])').forEach(function (select) {
    select.setAttribute('aria-label', select.closest('tr').getAttribute('data-param-name'));
  });
  document.querySelectorAll('select.examples-select-element:not([aria-label])').forEach(function (select) {
    select.setAttribute('aria-label', 'Example');
  });
  document.querySelectorAll('table.responses-table[role=region]:not([aria-label])').forEach(function (table) {
    table.setAttribute('aria-label', 'Responses of ' + table.id.replace(/_responses$/, '').replace(/_/g, ' '));
  });
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });`;

// Swagger UI's own colours, darkened where text on them falls below WCAG 1.4.3's 4.5:1; its layout is untouched.
const contrast = `.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #3f6b00; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui a.link { color: #1d4ed8; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17734a; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a4a00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6b63; }
.swagger-ui .btn.authorize { color: #17734a; border-color: #17734a; }
.swagger-ui .btn.authorize svg { fill: #17734a; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4b5563; }
.swagger-ui .json-schema-2020-12__constraint { background: #8a5a00; }
.swagger-ui .parameter__in { color: #4b5563; }
.swagger-ui .markdown code, .swagger-ui .renderedMarkdown code { color: #6b0fc0; }
/* The example highlighter colours by inline style: lighter on its dark background. */
.swagger-ui .microlight span[style*="211, 99, 99"] { color: #f2a0a0 !important; }
/* The "deprecated" mark of a schema property, and of a parameter (\`view\`, contract 2.2.0). */
.swagger-ui .json-schema-2020-12__attribute--warning, .swagger-ui .parameter__deprecated { color: #b91c1c; }
/* A deprecated operation: Swagger UI greys it out (opacity .6) below 4.5:1; its path stays struck through. */
.swagger-ui .opblock.opblock-deprecated { opacity: 1; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #4b5563; }`;

const swaggerUiVersion =
  (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version;
/**
 * The page's scripts, styles and icon live under a path named by their content (Swagger UI's version and our two
 * files): a new release gets a new path, so they may be cached for a year without revalidation.
 */
const fingerprint =
  createHash('sha256').update(`${swaggerUiVersion}\n${init}\n${contrast}`).digest('base64url').slice(0, 12);
export const docsAssets = `/docs/assets/${fingerprint}`;
const immutable = { immutable: true, maxAge: '1y', index: false };

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sighting registry API</title>
<link rel="icon" type="image/png" href="${docsAssets}/favicon-32x32.png">
<link rel="stylesheet" href="${docsAssets}/swagger-ui.css">
<link rel="stylesheet" href="${docsAssets}/docs-contrast.css"></head>
<body><div id="swagger-ui"></div>
<script src="${docsAssets}/swagger-ui-bundle.js"></script>
<script src="${docsAssets}/docs-init.js"></script></body></html>`;

const changelog = staticAnswer(readFileSync(new URL('../../docs/changelog.md', import.meta.url), 'utf8'));
const [pageAnswer, initAnswer, contrastAnswer] = [staticAnswer(page), staticAnswer(init), staticAnswer(contrast)];
const forever = 'public, max-age=31536000, immutable';
// Distinct origins are few (served-contract.ts bounds them the same way).
const originLimit = 16;

/** Each origin's text, hashed and compressed once: `/docs` fetches it on every visit (127 KB, 13 KB as br). */
function answersByOrigin(served: (origin: string) => string): (origin: string) => StaticAnswer {
  const answers = new Map<string, StaticAnswer>();
  return (origin) => {
    let answer = answers.get(origin);
    if (!answer) {
      if (answers.size >= originLimit) answers.clear();
      answer = staticAnswer(served(origin));
      answers.set(origin, answer);
    }
    return answer;
  };
}

/** The contract as served names this instance: the origin it was fetched from (or PUBLIC_URL) and its provider. */
export function docsRouter(options: ServedContractOptions): Router {
  const contractFor = answersByOrigin(servedContract(options));
  // What Swagger UI renders: the same contract, its Authorize offering only the flow a browser page completes.
  const docsContractFor = answersByOrigin(servedContract({ ...options, browserFlowsOnly: true }));
  const originOf = (req: Request) => `${req.protocol}://${req.host}`;
  return Router()
    .get('/openapi.yaml', (req, res) => sendStatic(req, res, 'application/yaml', contractFor(originOf(req))))
    .get('/docs/openapi.yaml', (req, res) => sendStatic(req, res, 'application/yaml', docsContractFor(originOf(req))))
    // What a deprecation's `Link` names (docs/contract-releases.md#deprecations): each release's changes, generated by
    // `npm run contract:release`.
    .get(changelogPath, (req, res) => sendStatic(req, res, 'text/markdown', changelog))
    // The page names the assets' current path: it is revalidated each time, they never are.
    .get(['/docs', '/docs/'], (req, res) => sendStatic(req, res, 'html', pageAnswer))
    .get(`${docsAssets}/docs-init.js`, (req, res) => sendStatic(req, res, 'js', initAnswer, forever))
    .get(`${docsAssets}/docs-contrast.css`, (req, res) => sendStatic(req, res, 'css', contrastAnswer, forever))
    // Swagger UI's scripts and styles (a 1.7 MB bundle) compressed on first use and kept, not on every request.
    .use(docsAssets, compressedOnce(swaggerUiDir, forever), express.static(swaggerUiDir, immutable))
    // The unversioned paths stay for what names them from outside: the OAuth 2.0 redirect page, older bookmarks.
    .get('/docs/docs-init.js', (req, res) => sendStatic(req, res, 'js', initAnswer))
    .get('/docs/docs-contrast.css', (req, res) => sendStatic(req, res, 'css', contrastAnswer))
    .use('/docs', compressedOnce(swaggerUiDir, 'no-cache'), express.static(swaggerUiDir, { index: false }));
}
