import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../app/deps';
import type { Logger } from '../logger';
import type { GraphQLServer, ServerContext } from './yoga';
import { admitRequest } from '../app/accounts/admitRequest';
import { rateHeaders } from '../app/accounts/rateLimit';
import { toServiceError, type ServiceError } from '../domain/errors/base';
import { payloadTooLarge } from '../domain/errors/request';
import { newId } from '../domain/ids';
import { toGraphQLError } from './errors';
import { createGraphQLFastPath } from './fastPath';
import { buildSchema } from './schema';
import { MAX_QUERY_DEPTH } from './yoga';

/** GraphiQL's page load: a browser GET without a query. */
function isGraphiQLPage(req: IncomingMessage): boolean {
  return req.method === 'GET' && !/[?&]query=/.test(req.url ?? '') && (req.headers.accept ?? '').includes('text/html');
}

function sendError(res: ServerResponse, e: ServiceError, requestId: string): void {
  const body = JSON.stringify({ errors: [toGraphQLError(e, requestId).toJSON()] });
  res.writeHead(e.status, { ...e.headers, 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId });
  res.end(body);
}

/**
 * `/graphql` over HTTP, dispatched before Koa's middleware chain: the same
 * admission (key, rate window) as REST runs once per HTTP request, then yoga.
 */
export function createGraphQLHttpHandler(o: { yoga: GraphQLServer; deps: AppDeps; logger: Logger; bodyLimitBytes: number; production?: boolean }) {
  const fastPath = createGraphQLFastPath({ schema: buildSchema(), production: o.production ?? false, maxDepth: MAX_QUERY_DEPTH, bodyLimitBytes: o.bodyLimitBytes });
  // requestListener merges extra server-context arguments at run time; its declared type omits them.
  const listen = o.yoga.requestListener as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: Pick<ServerContext, 'principal' | 'requestId'>,
  ) => Promise<void>;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = newId('request');
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    let accountId: string | undefined;
    try {
      if (Number(req.headers['content-length'] ?? 0) > o.bodyLimitBytes) throw payloadTooLarge(o.bodyLimitBytes);
      if (isGraphiQLPage(req)) {
        await listen(req, res, { principal: null, requestId });
        return;
      }
      const { principal, rate } = await admitRequest(o.deps, req.headers.authorization);
      accountId = principal.account.id;
      for (const [k, v] of Object.entries(rateHeaders(rate))) res.setHeader(k, v);
      if (fastPath.accepts(req)) {
        const idem = req.headers['idempotency-key'];
        await fastPath.handle(req, res, { deps: o.deps, principal, requestId, idempotencyKey: typeof idem === 'string' ? idem : undefined });
      } else {
        await listen(req, res, { principal, requestId });
      }
    } catch (thrown) {
      const e = toServiceError(thrown);
      if (e.status >= 500) o.logger.error({ err: thrown, requestId }, 'graphql request failed');
      if (!res.headersSent) sendError(res, e, requestId);
      else res.end();
    } finally {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      o.logger.info({ requestId, method: req.method, route: '/graphql', status: res.statusCode, durationMs, accountId }, 'request');
    }
  };
}
