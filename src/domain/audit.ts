/**
 * The audit log: an append-only record of who decided what
 * in an account. Events are kept AUDIT_RETENTION_DAYS (a TTL index on
 * MongoDB, the same cut in memory) and never carry a secret: no API key, no
 * payment proof, no private key, no session token (a key's id and display
 * prefix are fine).
 */

/** Every kind of event the log records. */
export const AUDIT_EVENT_TYPES = [
  'policy.created',
  'policy.updated',
  'policy.deleted',
  'wallet.policy_set',
  'wallet.policy_removed',
  'intent.created',
  'intent.denied',
  'intent.completed',
  'intent.failed',
  'intent.cancelled',
  'apikey.created',
  'apikey.revoked',
  'webhook.created',
  'webhook.deleted',
  'standing_intent.created',
  'standing_intent.paused',
  'standing_intent.resumed',
  'standing_intent.deleted',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * Who acted: an API key (id = key id), the operator through the admin API
 * (id null), the service itself (the engine finishing an intent; id null), or
 * a person signed in to the dashboard (id = their user id).
 */
export const AUDIT_ACTOR_TYPES = ['apiKey', 'admin', 'system', 'session'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActor {
  type: AuditActorType;
  id: string | null;
}

/** What the event is about; only the ids that apply are present. */
export interface AuditSubject {
  walletId?: string;
  intentId?: string;
  policyId?: string;
  keyId?: string;
  webhookId?: string;
  standingIntentId?: string;
}

export interface AuditEvent {
  /** `svc_audit_` and 32 hex characters. */
  id: string;
  accountId: string;
  /** When it happened (ISO 8601 UTC). */
  at: string;
  type: AuditEventType;
  actor: AuditActor;
  subject: AuditSubject;
  /** What was decided, by type (never a secret). */
  details: Record<string, unknown>;
}

/** How long events are kept. */
export const AUDIT_RETENTION_DAYS = 90;
export const AUDIT_RETENTION_MS = AUDIT_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** The oldest instant still kept at `now`: events at or before it are gone. */
export function auditRetentionCutoff(now: Date): Date {
  return new Date(now.getTime() - AUDIT_RETENTION_MS);
}
