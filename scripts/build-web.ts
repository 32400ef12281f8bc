// Builds the web page into web/dist, unless the last build is newer than everything it is built from.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

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
  await build({ configFile: join(root, 'web/vite.config.ts') });
}
