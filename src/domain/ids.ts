import { randomBytes } from 'node:crypto';

/** Opaque identifiers from 16 crypto-random bytes (128 bits), hex encoded, with a type prefix. */
export const ID_PREFIX = {
  wallet: 'svc_wallet_',
  intent: 'intent_',
  account: 'acct_',
  apiKey: 'key_',
  request: 'req_',
  user: 'user_',
  audit: 'svc_audit_',
  policy: 'svc_policy_',
  webhook: 'svc_webhook_',
  webhookMessage: 'msg_',
  standing: 'svc_standing_',
  decision: 'svc_decision_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export function newId(kind: IdKind): string {
  return ID_PREFIX[kind] + randomBytes(16).toString('hex');
}

/** Counter of ids made in the same millisecond by this process. */
let lastMs = -1;
let sameMs = 0;

/**
 * An id of the same shape as newId (32 hex characters after the prefix) that
 * sorts in creation order: 12 hex of the millisecond `atMs`, 4 of a counter
 * within that millisecond, 16 random. Records listed newest first by (time,
 * id) keep the order they were appended in, even within one millisecond.
 */
export function newTimeOrderedId(kind: IdKind, atMs: number): string {
  sameMs = atMs === lastMs ? sameMs + 1 : 0;
  lastMs = atMs;
  const time = Math.max(0, Math.floor(atMs)).toString(16).padStart(12, '0').slice(-12);
  const counter = (sameMs & 0xffff).toString(16).padStart(4, '0');
  return ID_PREFIX[kind] + time + counter + randomBytes(8).toString('hex');
}

export function hasPrefix(kind: IdKind, id: string): boolean {
  return id.startsWith(ID_PREFIX[kind]);
}
