import type Router from '@koa/router';
import { createRouter } from '../router';
import type { RestState } from '../context';
import type { Metrics } from '../metrics';

export interface HealthChecks {
  /** Resolves when every dependency (store, chains) answers, with what the store's server can do; throws naming the one that does not. */
  ready(): Promise<Record<string, unknown>>;
}

/** /healthz (process alive), /readyz (dependencies answer), /metrics (Prometheus). */
export function healthRoutes(checks: HealthChecks, metrics: Metrics): Router<RestState> {
  const router = createRouter();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      ctx.body = { status: 'ready', checks: await checks.ready() };
    } catch (e) {
      ctx.status = 503;
      ctx.body = { error: 'SERVICE_UNAVAILABLE', message: 'Not ready', details: { reason: (e as Error).message } };
    }
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
