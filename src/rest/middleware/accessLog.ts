import type { Middleware } from 'koa';
import type { Logger } from '../../logger';
import type { RestState } from '../context';
import type { Metrics } from '../metrics';

/** One structured line per request: id, method, route, status, duration. No headers, no bodies. */
export function accessLog(logger: Logger, metrics: Metrics): Middleware<RestState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, ms / 1000);
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          route,
          path: ctx.path,
          status: ctx.status,
          durationMs: Math.round(ms * 100) / 100,
          accountId: ctx.state.principal?.account.id,
        },
        'request',
      );
    }
  };
}
