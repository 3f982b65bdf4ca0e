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

export interface HardeningOptions {
  /** Origins a browser app may call the API from; empty: no CORS at all (the default). */
  corsOrigins: readonly string[];
}

/**
 * Security headers on every answer of both front doors (helmet: CSP,
 * nosniff, frame-ancestors, Referrer-Policy no-referrer, HSTS off on plain
 * http) and, when origins are configured, CORS for exactly those origins:
 * preflights answered 204 before any authentication, the request's origin
 * echoed only when it is on the list, never `*`.
 */
export function createHardening(o: HardeningOptions): Handler {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  }) as unknown as Handler;
  const allowed = new Set(o.corsOrigins);
  const corsHandler =
    allowed.size === 0
      ? undefined
      : (cors({
          origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
          methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
          allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'PAYMENT-SIGNATURE', 'X-PAYMENT', 'X-Payment-Proof', 'X-Account-Id', 'X-Request-Id'],
          exposedHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Credits-Remaining', 'PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE', 'Idempotent-Replayed'],
          maxAge: 600,
          optionsSuccessStatus: 204,
        }) as unknown as Handler);
  return (req, res, next) =>
    headers(req, res, (err) => {
      if (err || !corsHandler) return next(err);
      corsHandler(req, res, next);
    });
}
