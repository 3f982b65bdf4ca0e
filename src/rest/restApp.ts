// First: the OpenAPI document names domain schemas with .openapi(), which zod v4 installs per schema at creation, so zod is extended before any schema exists.
import './openapi/zod';
import Koa from 'koa';
import type Router from '@koa/router';
import { createRouter, guardEveryRoute, listRoutes, type RouteInfo } from '../http/router';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import type { RestState } from './context';
import type { Metrics } from '../metrics';
import { requestId } from './middleware/requestId';
import { accessLog } from './middleware/accessLog';
import { outcomeMetrics } from './middleware/outcomeMetrics';
import { errorHandler } from './middleware/errors';
import { jsonBody } from './middleware/jsonBody';
import { admission } from './middleware/admission';
import { createClientAddress, type ClientAddress } from '../http/clientAddress';
import { v1Routers } from './routes/v1';
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
  /** Sandbox admin controls (sandbox mode only). */
  adminRouters?: Router<RestState>[];
  /** Static documents (OpenAPI) served without auth. */
  publicRouters?: Router<RestState>[];
  /** The client address of a request (TRUSTED_PROXIES); without it, the connecting peer. */
  clientAddress?: ClientAddress;
}

/** The Koa app of the REST front door: thin routes over the use-cases; `routes` lists what it serves. */
export function createRestApp(o: RestAppOptions): { app: Koa<RestState>; routes: RouteInfo[] } {
  const app = new Koa<RestState>();
  // Koa's own X-Forwarded-For reading (ctx.ip) is off: the client address is decided once, by clientAddress (TRUSTED_PROXIES).
  app.proxy = false;
  app.silent = true;

  const root = createRouter<RestState>();
  const health = healthRoutes(o.health, o.metrics);
  root.use(health.routes());
  root.use(docsRoutes().routes());
  for (const r of o.publicRouters ?? []) root.use(r.routes());

  // Authentication and the rate window run before the body is read, so an unauthenticated body is never parsed.
  const admit = admission(o.deps, {
    clientAddress: o.clientAddress ?? createClientAddress([]),
    events: {
      settled: () => {
        o.metrics.paidReads.inc({ outcome: 'settled' });
        o.metrics.payments.inc({ outcome: 'settled' });
      },
      settlementFailed: (info) => {
        o.metrics.paidReads.inc({ outcome: 'settlement_failed' });
        o.metrics.payments.inc({ outcome: 'settlement_failed', reason: info.reason ?? 'unknown' });
        o.logger.error(info, 'paid read refused: its payment could not be settled');
      },
    },
  });
  const body = jsonBody(o.bodyLimitBytes);
  const v1 = createRouter<RestState>({ prefix: '/v1' });
  for (const r of v1Routers(o.deps)) v1.use(r.routes());
  root.use(guardEveryRoute(v1, admit, body).routes());

  if (o.adminToken) root.use(adminRoutes(o.deps, o.adminToken, body, o.adminRouters).routes());

  app.use(requestId());
  app.use(accessLog(o.logger, o.metrics));
  app.use(outcomeMetrics(o.deps, o.metrics));
  app.use(errorHandler(o.logger));
  app.use(async (ctx, next) => {
    await next();
    // The router only sets a bare status for unmatched paths and methods; answer them in JSON.
    if (ctx.body !== undefined && ctx.body !== null && ctx.body !== '') return;
    if (ctx.status !== 404 && ctx.status !== 405) return;
    // No route answered, so no handler ran. Under /v1 the key is still checked (401/429 first) so a
    // known account's 404/405 carries its rate headers; this decides no access, only what the error shows.
    if (ctx.path.startsWith('/v1/')) await admit(ctx, async () => {});
    if (ctx.status === 405) throw methodNotAllowed(ctx.method, ctx.response.get('Allow').split(/,\s*/));
    throw notFound(`Route ${ctx.method} ${ctx.path}`);
  });
  app.use(root.routes());
  app.use(root.allowedMethods());
  return { app, routes: listRoutes(root) };
}
