// Builds the web page into web/dist, unless the last build is newer than everything it is built from.
import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** The page's sources, the messages and API types it imports, and the installed build tools. */
const inputs = ['web/index.html', 'web/src', 'web/vite.config.ts', 'locales', 'generated', 'package-lock.json'];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = (() => {
  try {
    return statSync(join(root, 'web/dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
})();
// `npm start` runs this every time: an up-to-date page costs a few stat calls instead of a build.
if (process.argv.includes('--force') || Math.max(...inputs.map((input) => newest(join(root, input)))) > built) {
  // Loaded only to build: `npm start` with an up-to-date page should not pay for loading vite.
  const { build } = await import('vite');
  await build({ configFile: join(root, 'web/vite.config.ts') });
  await precompress(join(root, 'web/dist'));
}

/**
 * Writes `.br` and `.gz` beside each text file, compressed once at their best, so the service sends them as they are
 * (src/http/precompressed-files.ts) instead of compressing on every request.
 */
async function precompress(dir: string): Promise<void> {
  const files =
    readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(?:html|js|css|svg|json)$/.test(name));
  await Promise.all(files.map(async (name) => {
    const content = await readFile(join(dir, name));
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
      promisify(gzip)(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    await Promise.all([writeFile(join(dir, `${name}.br`), br), writeFile(join(dir, `${name}.gz`), gz)]);
  }));
}
