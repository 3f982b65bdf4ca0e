import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import cors from 'cors';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The Content-Security-Policy of every answer: nothing inline, nothing from
 * elsewhere, never framed. The GraphiQL page widens script-src with the
 * hashes of its own inline scripts (graphiqlCsp).
 */
const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** The GraphiQL page's policy: the default one, its inline scripts allowed by hash only. */
export function graphiqlCsp(scriptHashes: readonly string[]): string {
  const script = ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The handler, and what an answer written whole without it must carry. */
export type Hardening = Handler & {
  /**
   * Helmet's headers as name, value, name, value…: what the handler sets on
   * every answer, for one written whole by a single `writeHead(status, [...])`
   * on a response nothing was set on (so there is nothing to remove). Node
   * validates them there once, as setHeader would, without keeping each in the
   * response's header map: eleven setHeader calls cost an answer ~1.8 µs more.
   */
  securityHeaders: readonly string[];
  /** Whether CORS is on (origins configured): then the handler may add more than securityHeaders. */
  cors: boolean;
};

export interface HardeningOptions {
  /** Origins a browser app may call the API from; empty: no CORS at all (the default). */
  corsOrigins: readonly string[];
}

/** What a header middleware does to every answer, in order: set a header, or remove one. */
export type HeaderOp = readonly ['set', string, string] | readonly ['remove', string];

/** The helmet middleware with the service's options. */
export function securityHeadersMiddleware(): Handler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  }) as unknown as Handler;
}

/**
 * What `middleware` does to an answer, recorded once against a stand-in
 * request and response. Helmet's headers here are constants (no directive
 * is a function of the request, HSTS is off), so replaying the record gives
 * every answer the same headers as running helmet's twelve middleware per
 * request, without the chain. Throws if the middleware does not finish at
 * once, fails, or reads anything from the request beyond what is given.
 */
export function recordHeaderOps(middleware: Handler): HeaderOp[] {
  const ops: HeaderOp[] = [];
  const res = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`recordHeaderOps: ${name} is not a plain string header`);
      ops.push(['set', name, value]);
      return res;
    },
    removeHeader(name: string) {
      ops.push(['remove', name]);
    },
  };
  let finished = false;
  middleware({ method: 'GET', url: '/', headers: {} } as IncomingMessage, res as unknown as ServerResponse, (err) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error('recordHeaderOps: the middleware did not finish synchronously');
  return ops;
}

/** A CORS preflight: OPTIONS naming the origin and the method a browser wants to send. */
const isPreflight = (req: IncomingMessage): boolean =>
  req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;

/**
 * Security headers on every answer of both front doors (helmet: CSP,
 * nosniff, frame-ancestors, Referrer-Policy no-referrer, HSTS off on plain
 * http) and CORS: every preflight is answered 204 here, before any route or
 * authentication (a preflight never carries credentials, so a door asking for
 * them answered 401 where another answered 204); with origins configured,
 * for exactly those origins, the request's origin echoed only when it is on
 * the list, never `*`; without, or from an origin not on the list, with no
 * Access-Control-Allow-* header at all, which the browser reads as a refusal. Helmet runs once, at construction
 * (recordHeaderOps); each answer replays what it did.
 */
export function createHardening(o: HardeningOptions): Hardening {
  const ops = recordHeaderOps(securityHeadersMiddleware());
  const sets = ops.filter((op): op is readonly ['set', string, string] => op[0] === 'set').map(([, name, value]) => [name, value] as const);
  const removes = ops.filter((op) => op[0] === 'remove').map((op) => op[1]);
  const securityHeaders = Object.freeze(sets.flat());
  const headers = (res: ServerResponse): void => {
    for (const [name, value] of sets) res.setHeader(name, value);
    for (const name of removes) res.removeHeader(name);
  };
  const allowed = new Set(o.corsOrigins);
  const corsHandler =
    allowed.size === 0
      ? undefined
      : (cors({
          origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
          methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
          allowedHeaders: [
            'Authorization',
            'Content-Type',
            'Idempotency-Key',
            'PAYMENT-SIGNATURE',
            'X-PAYMENT',
            'X-Payment-Proof',
            'X-Account-Id',
            'X-Request-Id',
          ],
          exposedHeaders: [
            'X-Request-Id',
            'Retry-After',
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
            'X-Credits-Remaining',
            'PAYMENT-REQUIRED',
            'PAYMENT-RESPONSE',
            'X-PAYMENT-RESPONSE',
            'Idempotent-Replayed',
          ],
          maxAge: 600,
          optionsSuccessStatus: 204,
        }) as unknown as Handler);
  const harden: Handler = (req, res, next) => {
    headers(res);
    const origin = req.headers.origin;
    // A listed origin: the cors package answers its preflight and decorates its requests.
    if (corsHandler && origin !== undefined && allowed.has(origin)) return corsHandler(req, res, next);
    // Any other preflight (CORS off, or an origin not on the list: the package would pass it on to the doors, 401 or 200 with Allow) ends here.
    if (isPreflight(req)) {
      res.writeHead(204, { 'Content-Length': '0', ...(corsHandler && { Vary: 'Origin' }) });
      return res.end();
    }
    next();
  };
  return Object.assign(harden, { securityHeaders, cors: corsHandler !== undefined });
}
