import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { RestState } from '../context';
import { openApiDocument } from '../openapi/document';
import { apiReferenceRoutes } from './apiReference';

/** `/v1/openapi.json` and the interactive reference that renders it at `/docs`, public. */
export function docsRoutes(): Router<RestState> {
  const router = createRouter<RestState>();
  router.get('/v1/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
  router.use(apiReferenceRoutes().routes());
  return router;
}
