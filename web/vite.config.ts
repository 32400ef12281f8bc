// Builds the web page (web/index.html and web/src) into web/dist, which the service serves at `/`.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  // Relative asset URLs: the page works wherever the service serves it.
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  logLevel: 'warn',
});
