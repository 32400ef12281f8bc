// Serves the contract (`/openapi.yaml`) and renders it with Swagger UI from the swagger-ui-dist package (`/docs`).
import express, { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { openApiText } from './validation/openapi-document.ts';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sighting registry API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/docs-init.js"></script></body></html>`;

// Kept out of the page so a strict Content-Security-Policy (no inline script) still allows it.
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.yaml', dom_id: '#swagger-ui' });`;

/** The contract as served: its OAuth URLs point at the realm this instance trusts. */
export function docsRouter(realmUrl: string): Router {
  const served = openApiText.replaceAll('http://localhost:8080/realms/sighting', realmUrl);
  return Router()
    .get('/openapi.yaml', (_req, res) => { res.type('application/yaml').send(served); })
    .get(['/docs', '/docs/'], (_req, res) => { res.type('html').send(page); })
    .get('/docs/docs-init.js', (_req, res) => { res.type('js').send(init); })
    .use('/docs', express.static(swaggerUiDir, { index: false }));
}
