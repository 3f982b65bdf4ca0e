import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbidden } from '../domain/errors/auth';
import { errorStatus } from './errorStatus';

/**
 * Which requests are for pages a browser renders with this service's
 * privileges, and which Host headers they are served to (ALLOWED_HOSTS, by
 * default localhost, 127.0.0.1 and [::1] on any port plus PUBLIC_URL's host).
 *
 * Why: a page on another site can re-point its own name at this server's
 * address (DNS rebinding) and then read this server's pages as same-origin.
 * The browser still sends that site's name as Host, so refusing unknown
 * hosts is what development servers do against it. The pages checked:
 * GraphiQL (its Headers tab holds the development key in development), the
 * dashboard (`/dashboard`) and the development sign-in (`/oidc`). `/docs` and
 * the OpenAPI document are public and hold nothing of this server's, so they
 * are served to any host (a proxy in front need not be listed for them).
 *
 * A refused page is 403 FORBIDDEN with `details.reason: "host"`.
 */

/** A Host header value pages are served to: a host, and a port when only that one is allowed. */
export interface AllowedHost {
  host: string;
  port?: string;
}

/** The host and port of a Host header value (`example.com:8080`, `[::1]:3000`), lowercased; null when it is not one. */
function splitHost(value: string): { host: string; port: string } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+)(?::(\d{1,5}))?$/.exec(value.trim());
  return m ? { host: m[1]!.toLowerCase().replace(/\.$/, ''), port: m[2] ?? '' } : null;
}

/** Whether a request's Host header names one of `allowed` (an entry without a port allows every port). */
export function hostAllowed(hostHeader: string | undefined, allowed: readonly AllowedHost[]): boolean {
  if (hostHeader === undefined) return false;
  const h = splitHost(hostHeader);
  if (!h) return false;
  return allowed.some((a) => a.host === h.host && (a.port === undefined || a.port === h.port));
}

const underPath = (url: string | undefined, prefix: string): boolean =>
  url === prefix || (url?.startsWith(`${prefix}/`) ?? false) || (url?.startsWith(`${prefix}?`) ?? false);

/** Whether the request is for one of the checked pages, GraphiQL aside (the GraphQL door knows when it renders it). */
export const isCheckedPagePath = (url: string | undefined): boolean => underPath(url, '/dashboard') || underPath(url, '/oidc');

/** 403 FORBIDDEN in the service's JSON error shape, naming the rule and how to allow the host. */
export function refuseHost(req: IncomingMessage, res: ServerResponse): void {
  const e = forbidden('This page is not served to this Host: add the name the service is reached by to ALLOWED_HOSTS', {
    reason: 'host',
    host: req.headers.host?.slice(0, 255) ?? null,
  });
  res.writeHead(errorStatus(e), { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: e.code, message: e.message, details: e.details }));
}
