import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { RestState } from '../context';
import type { Metrics } from '../../metrics';
import { isServiceError } from '../../domain/errors/base';

export interface HealthChecks {
  /** Resolves when every dependency (store, chains) answers, with what the store's server can do; throws naming the one that does not. */
  ready(): Promise<Record<string, unknown>>;
  /** The deployment environment, shown by /healthz (development, staging, production). */
  environment?: string;
}

/** What GET /healthz answers: the process is alive (the route here, and the front door's fast path, fastHealthz). */
export function healthBody(checks: HealthChecks): { status: 'ok'; environment?: string } {
  return { status: 'ok', ...(checks.environment ? { environment: checks.environment } : {}) };
}

/** /healthz (process alive), /readyz (dependencies answer), /metrics (Prometheus). */
export function healthRoutes(checks: HealthChecks, metrics: Metrics): Router<RestState> {
  const router = createRouter<RestState>();
  router.get('/healthz', (ctx) => {
    ctx.body = healthBody(checks);
  });
  router.get('/readyz', async (ctx) => {
    try {
      ctx.body = { status: 'ready', checks: await checks.ready() };
    } catch (e) {
      ctx.status = 503;
      // a service error names the dependency in one line; anything else is not echoed (it may carry request details)
      ctx.body = {
        error: 'SERVICE_UNAVAILABLE',
        message: 'Not ready',
        details: { reason: isServiceError(e) ? e.message : 'a dependency failed (see the log)' },
      };
    }
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
