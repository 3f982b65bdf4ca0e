import type { IncomingMessage } from 'node:http';
import { forbidden } from '../domain/errors/auth';
import type { ServiceError } from '../domain/errors/base';

/** The dashboard's session cookie (HttpOnly, SameSite=Lax, Path=/; Secure under https). */
export const SESSION_COOKIE = 'svc_session';

/** One cookie's value from a Cookie header (first occurrence), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export const sessionCookieOf = (req: Pick<IncomingMessage, 'headers'>): string | undefined => readCookie(req.headers.cookie, SESSION_COOKIE);

/** A Set-Cookie value: the session for `maxAgeSeconds`, or (0) cleared. */
export function sessionCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The origins the service itself is served from: its public URL's, and the one the request names in Host. */
function ownOrigins(req: Pick<IncomingMessage, 'headers'>, publicOrigin: string | undefined): Set<string> {
  const out = new Set<string>();
  if (publicOrigin) out.add(publicOrigin);
  const host = req.headers.host;
  if (host) {
    out.add(`http://${host}`);
    out.add(`https://${host}`);
  }
  return out;
}

/** Whether a present Origin header names the service itself (an absent one is a same-origin GET/HEAD or a non-browser client). */
export function sameOrigin(req: Pick<IncomingMessage, 'headers'>, publicOrigin: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return ownOrigins(req, publicOrigin).has(origin);
}

/**
 * Cross-site request forgery defence for requests a session cookie
 * authenticates: the request must be one a cross-site page cannot send
 * without a CORS preflight (a POST with a JSON content type, or with the
 * custom `X-Requested-With` header), and a browser's Origin, when present,
 * must be the service's own. A form post from another site fails both.
 * Returns the refusal, or null when the request may proceed.
 */
export function refuseCrossSite(req: Pick<IncomingMessage, 'headers' | 'method'>, publicOrigin: string | undefined): ServiceError | null {
  if (!sameOrigin(req, publicOrigin)) return forbidden('Cross-origin requests cannot use the dashboard session', { reason: 'origin' });
  const json = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
  const custom = req.headers['x-requested-with'] !== undefined;
  if (req.method !== 'POST' || !(json || custom)) {
    return forbidden('Dashboard session requests must be POST with Content-Type: application/json or an X-Requested-With header', { reason: 'csrf' });
  }
  return null;
}
