import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { RestState } from '../context';

/**
 * The interactive API reference at `/docs`: Swagger UI (the `swagger-ui-dist`
 * package, served from this process, no CDN) rendering `/v1/openapi.json`,
 * with "Try it out" calling this service. The page's own script is a file
 * like the others, so the strict CSP (no inline script) holds here too.
 */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Started in the browser by /docs/assets/init.js: the document, try-it on, the key kept for the page's life only. */
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#api-reference',
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: false,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Wallet, yield and lending-intent service</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<div id="api-reference"></div>
<noscript><p>The reference needs JavaScript; the document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>. GraphQL: <a href="/graphql">/graphql</a>.</p></noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>
`;

function assetDir(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The package files /docs serves, each at /docs/assets/<name>. */
export const API_REFERENCE_ASSETS = Object.keys(ASSETS);

/** `/docs` and its assets, public; the package's files are read once per process. */
export function apiReferenceRoutes(): Router<RestState> {
  const router = createRouter<RestState>();
  const cache = new Map<string, Buffer>();
  const load = (name: string): Buffer => {
    let body = cache.get(name);
    if (!body) {
      body = readFileSync(join(assetDir(), name));
      cache.set(name, body);
    }
    return body;
  };
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = PAGE;
  });
  router.get('/docs/assets/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = INIT;
  });
  // One route per asset (an allow-list): nothing else of the package is reachable.
  for (const [name, type] of Object.entries(ASSETS)) {
    router.get(`/docs/assets/${name}`, (ctx) => {
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = load(name);
    });
  }
  return router;
}
