import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AppDeps } from './app/deps';
import type { Logger } from './logger';
import { createRestApp, type RestAppOptions } from './rest/restApp';
import type { RouteInfo } from './http/router';
import { createGraphQLServer } from './graphql/yoga';
import { createGraphQLHttpHandler } from './graphql/httpHandler';
import { attachGraphQLWebSocket } from './graphql/wsServer';
import { buildSchema } from './graphql/schema';
import { createHardening } from './http/hardening';
import { fastHealthz } from './rest/fastHealthz';
import { fastKeyedReads, type FastRead } from './rest/fastKeyedReads';
import { createStreamQuotas } from './graphql/streamQuotas';
import { hostAllowed, isCheckedPagePath, refuseHost } from './http/allowedHosts';
import type { AllowedHost } from './http/allowedHosts';

/** 503 with Retry-After, closing the socket: the answer a draining server gives new requests. */
function answerDraining(res: ServerResponse): void {
  const body = JSON.stringify({ error: 'SERVICE_UNAVAILABLE', message: 'The service is shutting down; retry in a moment', details: {} });
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '5', Connection: 'close' });
  res.end(body);
}

const isGraphQLPath = (url: string | undefined) => url === '/graphql' || (url?.startsWith('/graphql?') ?? false);
const isOidcPath = (url: string | undefined) => url === '/oidc' || (url?.startsWith('/oidc/') ?? false) || (url?.startsWith('/oidc?') ?? false);

export type FrontDoorOptions = Omit<RestAppOptions, 'deps' | 'logger'> & {
  deps: AppDeps;
  logger: Logger;
  production: boolean;
  /** Pre-filled in GraphiQL's Headers tab for browsers on this machine (development only). */
  graphiqlApiKey?: string;
  corsOrigins?: readonly string[];
  /** The embedded development sign-in provider, answering under `/oidc` (sandbox only). */
  oidc?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The origin people reach the service at: a session's requests must come from it (read once listening). */
  publicUrl?: () => string;
  /** Host header values GraphiQL, the dashboard and the development sign-in are served to (src/http/allowedHosts.ts); default: loopback names only. */
  allowedHosts?: readonly AllowedHost[];
  /** Answer the common GraphQL-over-HTTP requests before yoga (default true); off, yoga answers every request. */
  graphqlFastPath?: boolean;
  /** `/v1` reads answered before Koa when asked exactly, with a key (fastKeyedReads); each must be a guarded route of the REST app. */
  fastReads?: readonly FastRead[];
};

const LOOPBACK_HOSTS: readonly AllowedHost[] = [{ host: 'localhost' }, { host: '127.0.0.1' }, { host: '[::1]' }];

/**
 * Slow clients are dropped on time: headers must arrive within 10 s and a
 * request within 30 s, checked every 2 s (Node's default check runs every
 * 30 s, so a slow-header client outlived its timeout by up to that much);
 * idle keep-alive sockets close after 5 s.
 */
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 2_000 } as const;

/**
 * Both front doors on one HTTP server (not yet listening): REST through Koa,
 * `/graphql` dispatched before Koa so it does not pay for Koa's middleware
 * chain, and graphql-ws on the same path. `closeWebSocket` ends every socket.
 */
export function createFrontDoors(o: FrontDoorOptions): { server: Server; closeWebSocket(): Promise<void>; routes: RouteInfo[]; drain(): void } {
  const rest = createRestApp(o);
  const koaHandler = rest.app.callback();
  const allowedHosts = o.allowedHosts ?? LOOPBACK_HOSTS;
  // One count of what each account holds open, for every transport that streams (WebSocket, SSE).
  const quotas = createStreamQuotas();
  const yoga = createGraphQLServer({
    deps: o.deps,
    logger: o.logger,
    production: o.production,
    streams: o.metrics.streams,
    graphiqlApiKey: o.graphiqlApiKey,
    clientAddress: o.clientAddress,
    quotas,
    allowedHosts,
  });
  const graphqlHandler = createGraphQLHttpHandler({
    yoga,
    deps: o.deps,
    logger: o.logger,
    bodyLimitBytes: o.bodyLimitBytes,
    production: o.production,
    publicUrl: o.publicUrl,
    allowedHosts,
    fastPath: o.graphqlFastPath ?? true,
  });
  const oidc = o.oidc;
  const harden = createHardening({ corsOrigins: o.corsOrigins ?? [] });
  // Without CORS the hardening adds only its security headers: /healthz then writes them itself, before it runs (fastHealthz).
  const healthzFirst = !harden.cors;
  const healthz = fastHealthz({ health: o.health, logger: o.logger, metrics: o.metrics, securityHeaders: healthzFirst ? harden.securityHeaders : undefined });
  const keyedRead = fastKeyedReads({ deps: o.deps, logger: o.logger, metrics: o.metrics, reads: o.fastReads ?? [], routes: rest.routes });
  let draining = false;
  const server = createServer({ connectionsCheckingInterval: TIMEOUTS.connectionsCheckingInterval }, (req, res) => {
    // GET /healthz with the security headers in its own head (no CORS configured), unless shutting down.
    if (healthzFirst && !draining && healthz(req, res)) return;
    // security headers (and CORS, when configured) on every other answer, before either door runs
    harden(req, res, () => {
      // Shutting down: requests already running finish; a new one (on a kept-alive socket) is told to retry elsewhere.
      if (draining) return answerDraining(res);
      // GET /healthz (with CORS configured) and the fast keyed reads answer here, as their REST routes would; everything else goes to its door.
      if ((!healthzFirst && healthz(req, res)) || keyedRead(req, res)) return;
      // The dashboard and the development sign-in go to allowed hosts only (DNS rebinding); GraphiQL is checked by its door.
      if (isCheckedPagePath(req.url) && !hostAllowed(req.headers.host, allowedHosts)) return refuseHost(req, res);
      if (isGraphQLPath(req.url)) void graphqlHandler(req, res);
      else if (oidc && isOidcPath(req.url)) {
        oidc(req, res).catch((err: unknown) => {
          o.logger.error({ err }, 'development sign-in provider failed');
          if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('Sign-in provider error');
        });
      } else void koaHandler(req, res);
    });
  });
  server.requestTimeout = TIMEOUTS.requestTimeout;
  server.headersTimeout = TIMEOUTS.headersTimeout;
  server.keepAliveTimeout = TIMEOUTS.keepAliveTimeout;
  const ws = attachGraphQLWebSocket({
    server,
    schema: buildSchema(),
    deps: o.deps,
    logger: o.logger,
    production: o.production,
    publicUrl: o.publicUrl,
    streams: o.metrics.streams,
    quotas,
  });
  return {
    server,
    closeWebSocket: () => ws.close(),
    routes: rest.routes,
    drain: () => {
      draining = true;
    },
  };
}
