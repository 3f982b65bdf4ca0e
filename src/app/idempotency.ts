import { createHash } from 'node:crypto';
import type { AppDeps } from './deps';
import { idempotencyConflict, invalidRequest } from '../domain/errors/request';

const TTL_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Canonical JSON (sorted keys) so the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
}

export interface Replayable<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * `Idempotency-Key` semantics for 24 h: the same key with the same body gives
 * the first answer again; with another body (or while the first is still
 * running) 409 IDEMPOTENCY_CONFLICT. Failed attempts free the key.
 */
export async function withIdempotency<T>(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  params: { scope: string; key: string | undefined; request: unknown },
  run: () => Promise<{ status: number; body: T }>,
): Promise<Replayable<T>> {
  const { scope, key } = params;
  if (key === undefined) return { ...(await run()), replayed: false };
  if (!KEY_PATTERN.test(key)) {
    throw invalidRequest([{ path: 'Idempotency-Key', message: 'must be 1-255 printable ASCII characters' }]);
  }
  const requestHash = createHash('sha256').update(canonical(params.request)).digest('hex');
  const now = deps.clock.now();
  const existing = await deps.store.idempotency.insertIfAbsent({
    scope,
    key,
    requestHash,
    status: 0,
    body: null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + TTL_MS).toISOString(),
  });
  if (existing) {
    if (existing.requestHash !== requestHash || existing.status === 0) throw idempotencyConflict(key);
    return { status: existing.status, body: existing.body as T, replayed: true };
  }
  try {
    const result = await run();
    await deps.store.idempotency.complete(scope, key, result.status, result.body);
    return { ...result, replayed: false };
  } catch (e) {
    await deps.store.idempotency.delete(scope, key);
    throw e;
  }
}
