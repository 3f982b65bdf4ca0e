import type Router from '@koa/router';
import { createRouter } from '../router';
import type { RestState } from '../context';
import { openApiDocument } from '../openapi';

/** A dependency-free page listing the operations, linking the machine-readable document. */
function docsPage(doc: { paths?: Record<string, Record<string, { summary?: string }>> }): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const rows = Object.entries(doc.paths ?? {}).flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]) => `<tr><td><code>${m.toUpperCase()}</code></td><td><code>/v1${esc(p)}</code></td><td>${esc(op.summary ?? '')}</td></tr>`),
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>API reference</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}td{padding:.3rem .8rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>Wallet, yield and lending-intent service</h1>
<p>REST under <code>/v1</code> (OpenAPI: <a href="/v1/openapi.json">/v1/openapi.json</a>), GraphQL at <a href="/graphql">/graphql</a>.
Send <code>Authorization: Bearer &lt;API key&gt;</code>.</p><table>${rows.join('')}</table></body></html>`;
}

/** `/v1/openapi.json` and `/docs`, public. */
export function docsRoutes(): Router<RestState> {
  const router = createRouter();
  router.get('/v1/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = docsPage(openApiDocument() as never);
  });
  return router;
}
