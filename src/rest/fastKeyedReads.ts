import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../app/deps';
import type { Principal } from '../app/accounts/principal';
import { admitRequest } from '../app/accounts/admitRequest';
import { rateHeaders } from '../app/accounts/rateLimit';
import type { Operation } from '../domain/plans';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import type { RouteInfo } from '../http/router';
import { accessRecorder } from './middleware/accessLog';
import { requestIdFor } from '../http/requestId';
import { creditHeadersFor, runCharged } from './middleware/admission';
import { errorAnswer } from './middleware/errors';
import { noteCreditsCharged } from './middleware/outcomeMetrics';

/** A `/v1` read the front door may answer before Koa: the route at `path` (GET, named `operation`), answered for `principal`. */
export interface FastRead {
  /** The route's full path (`/v1/...`), with no parameters: the request's URL must be exactly this. */
  path: string;
  operation: Operation;
  /** What the route's handler answers with an empty query, as JSON text (at once when it is at hand). */
  answer(principal: Principal): string | Promise<string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function setAll(res: ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/**
 * `GET <path>` with an API key, for the reads in `reads`, answered by the
 * front door before Koa, as fastHealthz answers /healthz: the middleware
 * chain and the router's walk of every route cost several times what the
 * read itself does. The steps and the rules are the Koa route's, through the
 * same functions: admitRequest (key, rate window), runCharged (scope,
 * credits, refund unless it succeeded), creditHeadersFor, errorAnswer,
 * noteCreditsCharged, the access line and metric (route = the path). So the
 * answer is the Koa route's, header for header (security and CORS headers
 * are already on it, set before either door runs). Only the exact URL (no
 * query string) with a non-empty Authorization header is answered here; a
 * read without one may be a paid read (x402) and, like HEAD, a query, or any
 * other path, goes to Koa. Throws at construction when a read has no
 * guarded GET route of that path and name in `routes`, so it can never
 * answer a path Koa does not serve, or serve it unguarded.
 */
export function fastKeyedReads(o: {
  deps: AppDeps;
  logger: Logger;
  metrics: Pick<Metrics, 'httpDuration'>;
  reads: readonly FastRead[];
  routes: readonly RouteInfo[];
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  for (const read of o.reads) {
    const route = o.routes.find((r) => r.method === 'GET' && r.path === read.path);
    if (!route || !route.guarded || route.name !== read.operation) throw new Error(`fastKeyedReads: no guarded GET ${read.path} route named ${read.operation}`);
  }
  const byPath = new Map(o.reads.map((r) => [r.path, r]));
  const record = accessRecorder(o.logger, o.metrics);
  const { deps, logger } = o;

  async function answer(read: FastRead, authorization: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = requestIdFor(typeof given === 'string' ? given : '');
    res.setHeader('X-Request-Id', requestId);
    let principal: Principal | undefined;
    let status = 200;
    let text = '';
    try {
      const admitted = await admitRequest(deps, authorization);
      principal = admitted.principal;
      setAll(res, rateHeaders(admitted.rate));
      let used: number | undefined;
      let thrown: unknown;
      try {
        await runCharged(
          deps,
          admitted.principal,
          read.operation,
          async () => {
            const answered = read.answer(admitted.principal);
            text = typeof answered === 'string' ? answered : await answered;
            // (where Koa sets it, when the handler sets its body: the headers go out in the route's order)
            res.setHeader('Content-Type', JSON_TYPE);
            return true;
          },
          (u) => {
            used = u;
          },
        );
      } catch (e) {
        thrown = e;
      }
      const credits = creditHeadersFor(deps, admitted.principal, used, thrown);
      if (credits) setAll(res, credits instanceof Promise ? await credits : credits);
      if (thrown !== undefined) throw thrown;
    } catch (thrown) {
      const e = errorAnswer(logger, thrown, requestId, read.path);
      status = e.status;
      setAll(res, e.headers);
      res.setHeader('Content-Type', JSON_TYPE);
      text = JSON.stringify(e.body);
    }
    noteCreditsCharged(deps, status, principal, read.operation);
    // Koa writes nothing to a response whose socket has gone; the request is still recorded.
    if (!res.writableEnded && !res.destroyed) {
      res.statusCode = status;
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.end(text);
    }
    record({ requestId, method: 'GET', route: read.path, path: read.path, status, started, accountId: principal?.account.id });
  }

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const read = byPath.get(req.url ?? '');
    if (!read) return false;
    const authorization = req.headers.authorization;
    if (!authorization) return false;
    answer(read, authorization, req, res).catch((err: unknown) => {
      // (answer() answers its own errors; this is a fault in the fast path itself)
      logger.error({ err }, 'fast read failed');
      res.destroy();
    });
    return true;
  };
}
