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
} as const;

export type IdKind = keyof typeof ID_PREFIX;

export function newId(kind: IdKind): string {
  return ID_PREFIX[kind] + randomBytes(16).toString('hex');
}

export function hasPrefix(kind: IdKind, id: string): boolean {
  return id.startsWith(ID_PREFIX[kind]);
}
