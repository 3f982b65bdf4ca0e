import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_sk_';
export const API_KEY_PATTERN = /^svc_sk_[0-9a-f]{64}$/;

/** A new key: `svc_sk_` + 64 hex from 32 random bytes (256 bits). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('hex');
}

/** Only this digest is stored: SHA-256, hex (crypto.hash, the one-shot form: half the cost of a Hash object, once per request). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What may be shown of a key later: its prefix and first 4 hex characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}

/**
 * Comparison of two hex digests whose time does not depend on where they
 * differ: every character is compared, with no early exit (as
 * crypto.timingSafeEqual does, without decoding both into Buffers on every
 * request). Digests of different lengths are unequal at once (a length is
 * no secret).
 */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}
