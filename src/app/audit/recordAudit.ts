import type { Store } from '../../ports/store';
import type { Principal } from '../accounts/principal';
import { newTimeOrderedId } from '../../domain/ids';
import type { AuditActor, AuditEvent } from '../../domain/audit';
import { auditActorOf, type Actor } from '../../domain/actor';
import { forbidden } from '../../domain/errors/auth';

/** Where a failed append is reported; a pino logger fits. */
export interface AuditWarnLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** What recording needs: the store's audit log, the clock, and optionally a logger for failed appends. */
export interface AuditDeps {
  store: Pick<Store, 'auditLog'>;
  clock: { now(): Date };
  logger?: AuditWarnLogger;
}

/**
 * An event as a use-case reports it: the log gives it its id and time. A null
 * actor (a paid read: it acts for no account and changes nothing) records
 * nothing.
 */
export type AuditEventInput = Omit<AuditEvent, 'id' | 'at' | 'actor'> & { actor: AuditActor | null };

/** The actor a write through `principal` acts as: its API key, or the signed-in person. A paid proof acts for nobody and writes nothing (FORBIDDEN). */
export function actorFor(principal: Principal): Actor {
  if (principal.via === 'apiKey') return { type: 'apiKey', account: principal.account, keyId: principal.keyId };
  if (principal.via === 'session') return { type: 'session', account: principal.account, userId: principal.user?.id ?? null };
  throw forbidden('A paid read changes nothing: writes need an API key');
}

/** The one who acts through `principal`, as the audit log names it; a paid proof is nobody's (null). */
export function actorOf(principal: Principal): AuditActor | null {
  return principal.via === 'payment' ? null : auditActorOf(actorFor(principal));
}

/** The operator through the admin API (one shared token: no id to name). */
export const ADMIN_ACTOR: AuditActor = { type: 'admin', id: null };

let failedAppends = 0;

/** Appends that failed since the process started (each was logged as a warning; the action itself stood). */
export function failedAuditAppends(): number {
  return failedAppends;
}

/** Field names that hold secrets: never recorded, whatever a caller puts in `details`. */
const SECRET_FIELD = /^(api_?key|key|secret|token|session_?token|proof|payment_?proof|private_?key|signature|authorization|password|seed|mnemonic)$/i;
/** A full API key anywhere in a string (a key named after itself, a pasted message). */
const FULL_API_KEY = /svc_sk_[0-9a-f]{64}/g;

/** `value` with secret fields dropped and full API keys cut to their display prefix, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(FULL_API_KEY, (k) => `${k.slice(0, 'svc_sk_'.length + 4)}…`);
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_FIELD.test(k))
        .map(([k, v]) => [k, withoutSecrets(v)]),
    );
  }
  return value;
}

/**
 * Records one audit event, and never throws into the caller's path.
 *
 * Why not fail the action when its record cannot be written: by the time an
 * event is recorded the action has happened (a key issued and shown once, an
 * intent stored and handed to the engine, a transaction mined). Failing the
 * request then would report as failed something that took effect, and a
 * retry would do it twice. So the action stands; the failed append is
 * logged as a warning (with the event's type, account and subject, which
 * hold no secret) and counted (failedAuditAppends), for the operator to see
 * and alert on. Appends go to the same store as the action, so a lost record
 * without a lost action needs that store to fail between the two writes.
 */
export async function recordAudit(deps: AuditDeps, input: AuditEventInput): Promise<AuditEvent | null> {
  if (input.actor === null) return null;
  let event: AuditEvent | undefined;
  try {
    const now = deps.clock.now();
    event = {
      id: newTimeOrderedId('audit', now.getTime()),
      accountId: input.accountId,
      at: now.toISOString(),
      type: input.type,
      actor: { type: input.actor.type, id: input.actor.id },
      subject: withoutSecrets(input.subject) as AuditEvent['subject'],
      details: withoutSecrets(input.details) as AuditEvent['details'],
    };
    await deps.store.auditLog.append(event);
    return event;
  } catch (err) {
    failedAppends += 1;
    try {
      deps.logger?.warn(
        { err, auditEvent: { type: input.type, accountId: input.accountId, subject: input.subject }, failedAuditAppends: failedAppends },
        'audit event not recorded; the action stands',
      );
    } catch {
      // a failing logger must not fail the action either
    }
    return null;
  }
}
