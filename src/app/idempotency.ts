import { createHash, randomUUID } from 'node:crypto';
import type { AppDeps } from './deps';
import { idempotencyConflict, invalidRequest } from '../domain/errors/request';

const TTL_MS = 24 * 3600 * 1000;
/**
 * How long a running first request holds its key. Past it the holder is
 * presumed dead (a crash between claiming the key and answering) and a retry
 * of the same request takes the key over and runs once (Stripe's semantics).
 * Far longer than the operations it guards (a wallet or intent insert).
 */
export const IDEMPOTENCY_LEASE_MS = 30_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Canonical JSON (sorted keys) so the same body in another key order is the same request. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
}

/** What a guarded run knows of its key: `seed` is the same for every run of one key's record (a retry that took a dead first run over included), so what it creates can be named from it. */
export interface IdempotentAttempt {
  seed?: string;
}

export interface Replayable<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * `Idempotency-Key` semantics for 24 h: the same key with the same body gives
 * the first answer again; with another body, or while the first is still
 * running, 409 IDEMPOTENCY_CONFLICT. Failed attempts free the key. A first
 * attempt that died without answering holds the key only for its lease
 * (IDEMPOTENCY_LEASE_MS); then one retry takes it over and runs, with the
 * same `seed` as the first (a run names what it creates from it, so the
 * retry finds what the first created instead of creating it twice). An
 * answer that could not be recorded is still given: the key stays held
 * until its lease runs out (a retry within it is a 409), never freed for a
 * second run with another seed.
 */
export async function withIdempotency<T>(
  deps: Pick<AppDeps, 'store' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>,
  params: { scope: string; key: string | undefined; request: unknown },
  run: (attempt: IdempotentAttempt) => Promise<{ status: number; body: T }>,
): Promise<Replayable<T>> {
  const { scope, key } = params;
  if (key === undefined) return { ...(await run({})), replayed: false };
  if (!KEY_PATTERN.test(key)) {
    throw invalidRequest([{ path: 'Idempotency-Key', message: 'must be 1-255 printable ASCII characters' }]);
  }
  const requestHash = createHash('sha256').update(canonical(params.request)).digest('hex');
  const now = deps.clock.now();
  const owner = randomUUID();
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
  const createdAt = now.toISOString();
  const existing = await deps.store.idempotency.insertIfAbsent({
    scope,
    key,
    requestHash,
    status: 0,
    body: null,
    owner,
    lockedUntil,
    createdAt,
    expiresAt: new Date(now.getTime() + TTL_MS).toISOString(),
  });
  if (existing) {
    if (existing.requestHash !== requestHash) throw idempotencyConflict(key);
    if (existing.status !== 0) return { status: existing.status, body: existing.body as T, replayed: true };
    // In progress: a live holder keeps it; a dead one's lease has run out and exactly one retry takes it over.
    const leaseEnd = Date.parse(existing.lockedUntil ?? existing.createdAt) + (existing.lockedUntil ? 0 : IDEMPOTENCY_LEASE_MS);
    if (leaseEnd > now.getTime()) throw idempotencyConflict(key);
    if (!(await deps.store.idempotency.takeOver(scope, key, existing.owner ?? null, owner, lockedUntil))) throw idempotencyConflict(key);
  }
  const seed = createHash('sha256')
    .update(`${scope}\n${key}\n${existing?.createdAt ?? createdAt}`)
    .digest('hex');
  let result: { status: number; body: T };
  try {
    result = await run({ seed });
  } catch (e) {
    await deps.store.idempotency.delete(scope, key, owner);
    throw e;
  }
  // The work is done: a failure to record its answer must not free the key for a second run (the lease holds it; a takeover reruns with the same seed).
  await deps.store.idempotency
    .complete(scope, key, owner, result.status, result.body)
    .catch((err: unknown) => deps.logger?.warn({ err, scope }, 'idempotent answer not recorded; the key stays held until its lease ends'));
  return { ...result, replayed: false };
}
