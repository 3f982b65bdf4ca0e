import type { Middleware } from 'koa';
import { fixedFieldsWriter, type Logger } from '../../logger';
import type { RestState } from '../context';
import type { Metrics } from '../../metrics';

const FIELDS = ['requestId', 'method', 'route', 'path', 'status', 'durationMs', 'accountId'] as const;

/** What one answered request records: its access line and its duration in the histogram. */
export interface AccessRecord {
  requestId: string;
  method: string;
  /** The route that matched (its pattern), or `unmatched`. */
  route: string;
  path: string;
  status: number;
  /** Since `process.hrtime.bigint()` at the start. */
  started: bigint;
  accountId: string | undefined;
}

/** Records answered requests: the Koa middleware below, and the front door's fast path (fastHealthz). */
export function accessRecorder(logger: Logger, metrics: Pick<Metrics, 'httpDuration'>): (r: AccessRecord) => void {
  // These fields are fixed and hold no secret: written without the redaction pass (fixedFieldsWriter).
  const line = fixedFieldsWriter(logger, FIELDS);
  return (r) => {
    const ms = Number(process.hrtime.bigint() - r.started) / 1e6;
    metrics.httpDuration.observe({ method: r.method, route: r.route, status: String(r.status) }, ms / 1000);
    line(
      'info',
      {
        requestId: r.requestId,
        method: r.method,
        route: r.route,
        path: r.path,
        status: r.status,
        durationMs: Math.round(ms * 100) / 100,
        accountId: r.accountId,
      },
      'request',
    );
  };
}

/** One structured line per request: id, method, route, status, duration. No headers, no bodies. */
export function accessLog(logger: Logger, metrics: Metrics): Middleware<RestState> {
  const record = accessRecorder(logger, metrics);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      record({
        requestId: ctx.state.requestId,
        method: ctx.method,
        route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched',
        path: ctx.path,
        status: ctx.status,
        started,
        accountId: ctx.state.principal?.account.id,
      });
    }
  };
}
