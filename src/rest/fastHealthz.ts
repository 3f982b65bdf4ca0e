import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { healthBody, type HealthChecks } from './routes/health';
import { accessRecorder } from './middleware/accessLog';
import { requestIdFor } from '../http/requestId';

/**
 * `GET /healthz` (the exact URL) answered by the front door before Koa, as
 * `/graphql` is, so a liveness probe does not pay for the REST middleware
 * chain and the router's walk of every route. The answer is the one the Koa
 * route gives, header for header (security headers are already on it, set
 * before either door runs): X-Request-Id (the caller's when safe, else a new
 * one), Content-Type and Content-Length, the same JSON body; the same access
 * line and duration metric (route `/healthz`). Anything else — HEAD, a query
 * string, another method — goes to Koa. Returns whether it answered.
 *
 * With `securityHeaders` (src/http/hardening.ts: the front door's, when no
 * CORS header can be added), it runs before the hardening and writes those
 * headers itself with its own in one `writeHead`, in the same order.
 */
export function fastHealthz(o: {
  health: HealthChecks;
  logger: Logger;
  metrics: Pick<Metrics, 'httpDuration'>;
  securityHeaders?: readonly string[];
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const body = JSON.stringify(healthBody(o.health));
  const length = String(Buffer.byteLength(body));
  const record = accessRecorder(o.logger, o.metrics);
  const CONTENT_TYPE = 'application/json; charset=utf-8';
  // The whole head, X-Request-Id's value filled in per answer.
  const head = o.securityHeaders && [...o.securityHeaders, 'X-Request-Id', '', 'Content-Type', CONTENT_TYPE, 'Content-Length', length];
  const idAt = (o.securityHeaders?.length ?? 0) + 1;
  return (req, res) => {
    if (req.url !== '/healthz' || req.method !== 'GET') return false;
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = requestIdFor(typeof given === 'string' ? given : '');
    if (head) {
      const answer = head.slice();
      answer[idAt] = requestId;
      res.writeHead(200, answer);
    } else {
      res.statusCode = 200;
      res.setHeader('X-Request-Id', requestId);
      res.setHeader('Content-Type', CONTENT_TYPE);
      res.setHeader('Content-Length', length);
    }
    res.end(body);
    record({ requestId, method: 'GET', route: '/healthz', path: '/healthz', status: 200, started, accountId: undefined });
    return true;
  };
}
