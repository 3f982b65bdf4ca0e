import type { IncomingMessage, ServerResponse } from 'node:http';
import { shouldRenderGraphiQL } from 'graphql-yoga';
import type { AppDeps } from '../app/deps';
import { fixedFieldsWriter, type Logger } from '../logger';
import { graphiqlScriptHashes, type GraphQLServer, type ServerContext } from './yoga';
import { graphiqlCsp } from '../http/hardening';
import { hostAllowed, refuseHost } from '../http/allowedHosts';
import type { AllowedHost } from '../http/allowedHosts';
import { admitRequest, type Admission } from '../app/accounts/admitRequest';
import { admitSession } from '../app/dashboard/sessions';
import { refuseCrossSite, sessionCookieOf } from '../http/sessionCookie';
import { rateHeaders } from '../app/accounts/rateLimit';
import { toServiceError, type ServiceError } from '../domain/errors/base';
import { payloadTooLarge, unsupportedMediaType } from '../domain/errors/request';
import { errorHeaders, errorStatus } from '../http/errorStatus';
import { newRequestId } from '../http/requestId';
import { toGraphQLError, type OnMasked } from './errors';
import { createGraphQLFastPath, type HandOver } from './fastPath';
import { readBoundedBody } from './readBody';
import { acceptsAnyOf, YOGA_ANSWER_TYPES } from './acceptHeader';
import { buildSchema } from './schema';

/**
 * Whether yoga will answer this request with the GraphiQL page (and execute
 * nothing): only outside production, where GraphiQL is on, and by yoga's own
 * rule (shouldRenderGraphiQL: a GET whose Accept names text/html, whatever the
 * query string says). Everything else is admitted before yoga sees it.
 */
function rendersGraphiQL(req: IncomingMessage, production: boolean): boolean {
  if (production) return false;
  const accept = req.headers.accept;
  return shouldRenderGraphiQL({ method: req.method ?? '', headers: new Headers(accept === undefined ? {} : { accept }) } as Request);
}

function sendError(res: ServerResponse, e: ServiceError, requestId: string): void {
  const body = JSON.stringify({ errors: [toGraphQLError(e, requestId).toJSON()] });
  res.writeHead(errorStatus(e), { ...errorHeaders(e), 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId });
  res.end(body);
}

/** The request body types yoga reads (JSON, a GraphQL document, a form, multipart). */
const YOGA_BODY_TYPES = new Set([
  'application/json',
  'application/graphql+json',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);
const mediaType = (req: IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * What yoga is handed: the Content-Type's media type lowercased and trimmed (media types are
 * case-insensitive; yoga compares them as written, and answers a bare 415), and, when Accept names
 * nothing yoga serves, JSON (GraphQL over HTTP lets a server disregard Accept; yoga would answer a
 * bare 406 after running the operation).
 */
function normalizeForYoga(req: IncomingMessage): void {
  const contentType = req.headers['content-type'];
  if (contentType !== undefined) {
    const [, ...params] = contentType.split(';');
    req.headers['content-type'] = [mediaType(req), ...params].join(';');
  }
  if (!acceptsAnyOf(req.headers.accept, YOGA_ANSWER_TYPES)) req.headers.accept = 'application/json';
}

/** The fields of /graphql's access line. */
const ACCESS_FIELDS = ['requestId', 'method', 'route', 'status', 'durationMs', 'accountId'] as const;

/**
 * `/graphql` over HTTP, dispatched before Koa's middleware chain: the same
 * admission (key, rate window) as REST runs once per HTTP request, then yoga.
 */
export function createGraphQLHttpHandler(o: {
  yoga: GraphQLServer;
  deps: AppDeps;
  logger: Logger;
  bodyLimitBytes: number;
  production?: boolean;
  publicUrl?: () => string;
  /** Host header values the GraphiQL page is served to (src/http/allowedHosts.ts). */
  allowedHosts: readonly AllowedHost[];
  /** false: yoga answers every request (the fast path's differential test compares the two). */
  fastPath?: boolean;
}) {
  /**
   * An API key when the request sends one; otherwise the dashboard's session
   * cookie, from a request a cross-site page cannot forge (refuseCrossSite).
   */
  const admit = async (req: IncomingMessage): Promise<Admission> => {
    const cookie = req.headers.authorization === undefined ? sessionCookieOf(req) : undefined;
    if (cookie === undefined) return admitRequest(o.deps, req.headers.authorization);
    const refused = refuseCrossSite(req, o.publicUrl?.());
    if (refused) throw refused;
    return admitSession(o.deps, cookie);
  };
  // The access line's fields are fixed and hold no secret: written without the redaction pass (fixedFieldsWriter).
  const accessLine = fixedFieldsWriter(o.logger, ACCESS_FIELDS);
  const onMasked: OnMasked = (err, requestId) => o.logger.error({ err, requestId }, 'graphql operation failed');
  const fastPath = createGraphQLFastPath({ schema: buildSchema(), production: o.production ?? false, bodyLimitBytes: o.bodyLimitBytes, onMasked });
  // requestListener merges extra server-context arguments at run time; its declared type omits them.
  const listen = o.yoga.requestListener as unknown as (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: Pick<ServerContext, 'principal' | 'requestId'>,
  ) => Promise<void>;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = newRequestId();
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    let accountId: string | undefined;
    try {
      if (Number(req.headers['content-length'] ?? 0) > o.bodyLimitBytes) throw payloadTooLarge(o.bodyLimitBytes);
      if (rendersGraphiQL(req, o.production ?? false)) {
        if (!hostAllowed(req.headers.host, o.allowedHosts)) return refuseHost(req, res);
        // The page inlines its scripts: allow exactly those, by hash, once the page is rendered.
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
        res.writeHead = ((...args: unknown[]) => {
          res.setHeader('Content-Security-Policy', graphiqlCsp(graphiqlScriptHashes()));
          return writeHead(...args);
        }) as typeof res.writeHead;
        await listen(req, res, { principal: null, requestId });
        return;
      }
      const { principal, rate } = await admit(req);
      accountId = principal.account.id;
      for (const [k, v] of Object.entries(rateHeaders(rate))) res.setHeader(k, v);
      const route = o.fastPath === false ? null : fastPath.route(req);
      let handOver: HandOver | undefined = {};
      if (route) {
        const idem = req.headers['idempotency-key'];
        handOver = await fastPath.handle(req, res, { deps: o.deps, principal, requestId, idempotencyKey: typeof idem === 'string' ? idem : undefined }, route);
        if (!handOver) return;
      }
      normalizeForYoga(req);
      // yoga would stream the body without a bound: read it here, bounded, and hand it over
      // (whatwg-node takes a Buffer left on `req.body` as the body); the fast path may have read it already.
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // yoga answers other media types 415 with an empty body: answer with the error object instead.
        if (req.method === 'POST' && !YOGA_BODY_TYPES.has(mediaType(req))) throw unsupportedMediaType(req.headers['content-type']);
        const body = handOver.body ?? (await readBoundedBody(req, o.bodyLimitBytes));
        if (body.length > 0) (req as IncomingMessage & { body?: Buffer }).body = body;
      }
      await listen(req, res, { principal, requestId });
    } catch (thrown) {
      const e = toServiceError(thrown);
      if (errorStatus(e) >= 500) o.logger.error({ err: thrown, requestId }, 'graphql request failed');
      if (!res.headersSent) sendError(res, e, requestId);
      else res.end();
    } finally {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      accessLine('info', { requestId, method: req.method, route: '/graphql', status: res.statusCode, durationMs, accountId }, 'request');
    }
  };
}
