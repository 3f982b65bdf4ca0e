import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard SPA, served by the service at /dashboard/ under a strict
 * Content-Security-Policy (script-src/style-src 'self'): no inline script
 * (the modulepreload polyfill is off), no inline style, every asset a file
 * under /dashboard/assets/ (nothing inlined as a data: URL).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/dashboard',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    sourcemap: false,
    target: 'es2022',
  },
});
