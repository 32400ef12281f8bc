// Serves the web page built by Vite into web/dist at `/`, and the settings it reads at start (`/web-config.json`).
import express, { Router } from 'express';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { textLength } from '../contract/bounds.ts';
import { orderParameters, sortableFields } from '../contract/sortable-fields.ts';
import { precompressedFiles } from '../http/precompressed-files.ts';
import { sendStatic, staticAnswer } from '../http/static-answer.ts';

const distDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface WebPageSettings {
  /** Where the collections live (BASE_PATH), on the page's own origin. */
  apiPath: string;
  /** The issuer URL of the realm the API trusts: the page discovers the provider's endpoints from it. */
  issuer: string;
}

export function webPageRouter({ apiPath, issuer }: WebPageSettings): Router {
  // The bounds the page checks before sending come from the contract, so they never drift from what the API checks.
  const bounds = { sightingMemo: textLength('SightingMemo'), vesselName: textLength('LanguageMap', 'en') };
  // Likewise the orders a list offers: the sighting list's sortable fields, and those with an order parameter.
  const orderedBy = orderParameters('/sighting');
  const settings = { apiPath, issuer, clientId: 'sighting-web', bounds,
    sortable: [...sortableFields('/sighting'), ...Object.keys(orderedBy)], orderParameters: orderedBy };
  const config = staticAnswer(JSON.stringify(settings));
  const router = Router().get('/web-config.json', (req, res) => sendStatic(req, res, 'json', config));
  if (!existsSync(distDir)) {
    // `npm ci`, `npm start` and `npm test` build it; a bare `node src/server.ts` on a fresh clone has not.
    console.warn(`web page not built (${distDir} is missing): run npm run build:web`);
    return router;
  }
  // Vite names assets by content hash, so they never change; the page itself must be revalidated.
  const assets = { immutable: true, maxAge: '1y' };
  router.use('/assets', precompressedFiles(`${distDir}/assets`, assets), express.static(`${distDir}/assets`, assets));
  // The page names its assets' current hashes: revalidated on each visit, a 304 while it is unchanged. Its ETag is
  // set here (express's own are off app-wide: ETags are record versions there); the file sender honours it.
  const etag = `W/"${createHash('sha256').update(readFileSync(`${distDir}/index.html`)).digest('base64url')
    .slice(0, 27)}"`;
  router.get(['/', '/index.html'], (req, res, next) => {
    res.set('ETag', etag);
    req.url = '/index.html';
    next();
  });
  const page = { headers: { 'Cache-Control': 'no-cache' } };
  router.use(precompressedFiles(distDir, page),
    express.static(distDir, { index: false, setHeaders: (res) => res.set(page.headers) }));
  return router;
}
