import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import type { RestState } from './context';
import type { Metrics } from './metrics';
import { requestId } from './middleware/requestId';
import { accessLog } from './middleware/accessLog';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/jsonBody';
import { admission } from './middleware/admission';
import { walletRoutes } from './routes/wallets';
import { adminRoutes } from './routes/admin';
import { healthRoutes, type HealthChecks } from './routes/health';
import { docsRoutes } from './routes/docs';
import { methodNotAllowed, notFound } from '../domain/errors/request';

export interface RestAppOptions {
  deps: AppDeps;
  logger: Logger;
  metrics: Metrics;
  health: HealthChecks;
  bodyLimitBytes: number;
  adminToken?: string;
  /** Further `/v1` routers (balances, intents, ...) and sandbox admin controls. */
  v1Routers?: Router<RestState>[];
  adminRouters?: Router<RestState>[];
  /** Static documents (OpenAPI) served without auth. */
  publicRouters?: Router<RestState>[];
}

const isV1 = (path: string) => path.startsWith('/v1/') && path !== '/v1/openapi.json';

/** The Koa app of the REST front door: thin routes over the use-cases. */
export function createRestApp(o: RestAppOptions): Koa<RestState> {
  const app = new Koa<RestState>();
  app.proxy = false;
  app.silent = true;

  const root = new Router<RestState>();
  const health = healthRoutes(o.health, o.metrics);
  root.use(health.routes());
  root.use(docsRoutes().routes());
  for (const r of o.publicRouters ?? []) root.use(r.routes());

  const v1 = new Router<RestState>({ prefix: '/v1' });
  for (const r of [walletRoutes(o.deps), ...(o.v1Routers ?? [])]) v1.use(r.routes());
  root.use(v1.routes());

  if (o.adminToken) root.use(adminRoutes(o.deps, o.adminToken, o.adminRouters).routes());

  app.use(requestId());
  app.use(accessLog(o.logger, o.metrics));
  app.use(errorHandler(o.logger));
  // Admission runs before body parsing and routing, so every /v1 answer (413, 415, 404 and 405 included) is authenticated and rate-counted.
  const admit = admission(o.deps);
  app.use((ctx, next) => (isV1(ctx.path) ? admit(ctx, next) : next()));
  app.use(jsonBody(o.bodyLimitBytes));
  app.use(async (ctx, next) => {
    await next();
    // The router only sets a bare status for unmatched paths and methods; answer them in JSON.
    if (ctx.body !== undefined && ctx.body !== null && ctx.body !== '') return;
    if (ctx.status === 405) throw methodNotAllowed(ctx.method, ctx.response.get('Allow').split(/,\s*/));
    if (ctx.status === 404) throw notFound(`Route ${ctx.method} ${ctx.path}`);
  });
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
